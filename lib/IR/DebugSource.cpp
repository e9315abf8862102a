#include "IR/DebugSource.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint::ir {

std::string pathOf(const DIFile *F) {
  if (!F)
    return "";
  SmallString<256> Path(F->getFilename());
  if (sys::path::is_relative(Path) && !F->getDirectory().empty()) {
    Path = F->getDirectory();
    sys::path::append(Path, F->getFilename());
  }
  return std::string(Path);
}

} // namespace warplint::ir
