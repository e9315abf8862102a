// The static shared memory a kernel's blocks hold: its own non-extern
// __shared__ variables and those of the functions it calls (direct calls in
// the TU, outside system headers), each variable once: one allocation per
// block however often its function is called.
#pragma once
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>

namespace warplint {

class StaticSharedMemory {
public:
  uint64_t bytes(const clang::FunctionDecl *F) { return measure(F).Bytes; }
  // The largest variable counted, for a note; null when there is none.
  const clang::VarDecl *largest(const clang::FunctionDecl *F) {
    return measure(F).Largest;
  }

private:
  struct Size {
    uint64_t Bytes = 0;
    const clang::VarDecl *Largest = nullptr;
    uint64_t LargestBytes = 0;
  };
  Size measure(const clang::FunctionDecl *F);
  // Memoised per kernel.
  llvm::DenseMap<const clang::FunctionDecl *, Size> Memo;
};

} // namespace warplint
