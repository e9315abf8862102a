#include "Core/NoLint.h"
#include <algorithm>
#include <cctype>

namespace warplint {

namespace {
enum class Kind { Line, NextLine, Begin, End };

struct Directive {
  Kind K;
  unsigned Line, Column;
  std::string Checks; // normalised: "*" when absent
};

// Finds the directives on one line of text, as clang-tidy does: the word
// NOLINT followed by an optional NEXTLINE/BEGIN/END and an optional
// parenthesised list; anything else directly after the word (NOLINTFOO) is
// not a directive.
void scanLine(llvm::StringRef Text, unsigned LineNo,
              std::vector<Directive> &Out) {
  size_t Pos = 0;
  while ((Pos = Text.find("NOLINT", Pos)) != llvm::StringRef::npos) {
    size_t Start = Pos;
    llvm::StringRef Rest = Text.drop_front(Pos + 6);
    Pos += 6;
    Kind K = Kind::Line;
    if (Rest.consume_front("NEXTLINE"))
      K = Kind::NextLine;
    else if (Rest.consume_front("BEGIN"))
      K = Kind::Begin;
    else if (Rest.consume_front("END"))
      K = Kind::End;
    std::string Checks = "*";
    if (Rest.consume_front("(")) {
      size_t Close = Rest.find(')');
      if (Close == llvm::StringRef::npos)
        continue; // unterminated list: not a directive
      llvm::StringRef List = Rest.take_front(Close).trim();
      Checks = List.empty() ? "*" : List.str();
      // Spaces inside the list are not significant.
      Checks.erase(std::remove(Checks.begin(), Checks.end(), ' '),
                   Checks.end());
    } else if (!Rest.empty() &&
               (isalnum((unsigned char)Rest[0]) || Rest[0] == '_')) {
      continue;
    }
    Out.push_back({K, LineNo, static_cast<unsigned>(Start + 1), Checks});
  }
}
} // namespace

NoLintIndex::NoLintIndex(llvm::StringRef Buffer) {
  std::vector<Directive> Directives;
  unsigned LineNo = 1;
  // Cheap rejection: most files have no directive at all.
  if (Buffer.contains("NOLINT")) {
    llvm::StringRef Rest = Buffer;
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      if (Line.contains("NOLINT"))
        scanLine(Line, LineNo, Directives);
      Rest = Tail;
      ++LineNo;
    }
  }

  std::vector<const Directive *> Open;
  for (const Directive &D : Directives) {
    switch (D.K) {
    case Kind::Line:
      Ranges.push_back({D.Line, D.Line, D.Checks, GlobList(D.Checks)});
      break;
    case Kind::NextLine:
      Ranges.push_back({D.Line + 1, D.Line + 1, D.Checks, GlobList(D.Checks)});
      break;
    case Kind::Begin:
      Open.push_back(&D);
      break;
    case Kind::End: {
      // Closes the innermost BEGIN with the same list.
      auto It =
          std::find_if(Open.rbegin(), Open.rend(), [&](const Directive *B) {
            return B->Checks == D.Checks;
          });
      if (It == Open.rend()) {
        Problems.push_back({D.Line, D.Column,
                            "unmatched 'NOLINTEND' comment without a previous "
                            "'NOLINTBEGIN' comment"});
        break;
      }
      Ranges.push_back({(*It)->Line, D.Line, D.Checks, GlobList(D.Checks)});
      Open.erase(std::next(It).base());
      break;
    }
    }
  }
  for (const Directive *B : Open)
    Problems.push_back({B->Line, B->Column,
                        "unmatched 'NOLINTBEGIN' comment without a subsequent "
                        "'NOLINTEND' comment"});
}

bool NoLintIndex::suppresses(unsigned Line, llvm::StringRef CheckId) const {
  for (const Range &R : Ranges)
    if (Line >= R.First && Line <= R.Last && R.Globs.contains(CheckId))
      return true;
  return false;
}

} // namespace warplint
