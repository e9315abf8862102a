// The source behind debug locations.
#pragma once
#include <string>

namespace llvm {
class DIFile;
} // namespace llvm

namespace warplint::ir {

// The path of a debug-info file, made absolute with its directory.
std::string pathOf(const llvm::DIFile *F);

} // namespace warplint::ir
