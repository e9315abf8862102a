// Paths as warplint compares and shows them.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warplint {

// File made absolute (against the working directory) and without dots.
std::string absolutePath(llvm::StringRef File);
// File with its links resolved, as the parses list the files they read
// (absolutePath(File) when it cannot be resolved).
std::string realPath(llvm::StringRef File);

// File's path below Root, with '/' separators, or "" when it is not below.
std::string pathBelow(llvm::StringRef File, llvm::StringRef Root);

} // namespace warplint
