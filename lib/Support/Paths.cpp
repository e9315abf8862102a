#include "Support/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace warplint {

std::string absolutePath(llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string realPath(llvm::StringRef File) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(File, Real))
    return absolutePath(File);
  return std::string(Real);
}

std::string pathBelow(llvm::StringRef File, llvm::StringRef Root) {
  std::string Abs = absolutePath(File);
  std::string Base = absolutePath(Root);
  llvm::StringRef Rest(Abs);
  if (!Rest.consume_front(Base))
    return "";
  if (!Base.empty() && !llvm::sys::path::is_separator(Base.back()) &&
      !(Rest.empty() || llvm::sys::path::is_separator(Rest.front())))
    return ""; // /src/a2 is not below /src/a
  Rest = Rest.ltrim("/\\");
  std::string Out = Rest.str();
  std::replace(Out.begin(), Out.end(), '\\', '/');
  return Out;
}

} // namespace warplint
