#include "Support/Glob.h"

namespace warplint {

GlobList::GlobList(llvm::StringRef Globs) {
  std::string Current;
  auto Flush = [&] {
    llvm::StringRef G = llvm::StringRef(Current).trim();
    if (!G.empty()) {
      bool Positive = !G.consume_front("-");
      G = G.trim();
      if (!G.empty())
        Items.push_back({Positive, G.str()});
    }
    Current.clear();
  };
  for (char C : Globs) {
    if (C == ',' || C == '\n')
      Flush();
    else
      Current.push_back(C);
  }
  Flush();
}

bool GlobList::matches(llvm::StringRef Pattern, llvm::StringRef Name) {
  // Iterative '*' matching; no other metacharacters, as in clang-tidy.
  size_t P = 0, N = 0, StarP = llvm::StringRef::npos, StarN = 0;
  while (N < Name.size()) {
    if (P < Pattern.size() && Pattern[P] == '*') {
      StarP = P++;
      StarN = N;
    } else if (P < Pattern.size() && Pattern[P] == Name[N]) {
      ++P;
      ++N;
    } else if (StarP != llvm::StringRef::npos) {
      P = StarP + 1;
      N = ++StarN;
    } else {
      return false;
    }
  }
  while (P < Pattern.size() && Pattern[P] == '*')
    ++P;
  return P == Pattern.size();
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Items.rbegin(); It != Items.rend(); ++It)
    if (matches(It->Pattern, Name))
      return It->Positive;
  return false;
}

} // namespace warplint
