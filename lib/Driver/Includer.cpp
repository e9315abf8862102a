#include "Driver/Includer.h"
#include "Support/Paths.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <vector>

namespace warplint {
namespace {

namespace scan = clang::dependency_directives_scan;

// Whether Source, a file in Dir, has a quoted #include of Target (a real
// path).
bool hasQuotedInclude(llvm::StringRef Source, llvm::StringRef Dir,
                      llvm::StringRef Target) {
  auto Buf = llvm::MemoryBuffer::getFile(Source, /*IsText=*/true);
  if (!Buf)
    return false;
  llvm::StringRef Text = (*Buf)->getBuffer();
  // Cheap first: a file that never names the fragment needs no scan.
  if (!Text.contains(llvm::sys::path::filename(Target)))
    return false;
  llvm::SmallVector<scan::Token, 64> Tokens;
  llvm::SmallVector<scan::Directive, 32> Directives;
  if (clang::scanSourceForDependencyDirectives(Text, Tokens, Directives))
    return false;
  for (const scan::Directive &D : Directives) {
    if (D.Kind != scan::pp_include && D.Kind != scan::pp_import)
      continue;
    // '#' 'include' "name"
    const scan::Token *Quoted =
        llvm::find_if(D.Tokens, [](const scan::Token &T) {
          return T.Kind == clang::tok::string_literal ||
                 T.Kind == clang::tok::header_name;
        });
    if (Quoted == D.Tokens.end())
      continue;
    llvm::StringRef Name = Text.substr(Quoted->Offset, Quoted->Length);
    if (!Name.consume_front("\"") || !Name.consume_back("\""))
      continue;
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    if (llvm::sys::fs::exists(Path) && realPath(Path) == Target)
      return true;
  }
  return false;
}

} // namespace

std::optional<std::string> findIncluder(llvm::StringRef Fragment) {
  std::string Target = realPath(Fragment);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Target);
  std::vector<std::string> Candidates;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".cu")
      Candidates.push_back(It->path());
  llvm::sort(Candidates);
  for (const std::string &C : Candidates)
    if (realPath(C) != Target && hasQuotedInclude(C, Dir, Target))
      return C;
  return std::nullopt;
}

} // namespace warplint
