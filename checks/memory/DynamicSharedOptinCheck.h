// memory-dynamic-shared-optin: a launch whose shared memory (the kernel's
// static __shared__ plus the launch's dynamic bytes) passes the 48 KB a block
// gets by default, with no cudaFuncSetAttribute(k,
// cudaFuncAttributeMaxDynamicSharedMemorySize, n) for that kernel, or passes
// the target's opt-in maximum (Volta tuning guide 1.4.3.2).
#pragma once
#include "Analysis/SharedMemory.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseMap.h"

namespace warplint::memory {

// Launches and opt-ins are collected by walking each host function (which
// gives the enclosing function without a TU-wide parent map), and judged
// once the whole TU has been seen.
class DynamicSharedOptinCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  void finishTranslationUnit() override;
  bool wantsHostFunctions() const override { return true; }

  struct Launch {
    const clang::FunctionDecl *Kernel;
    const clang::Expr *Dynamic;
    const clang::FunctionDecl *Caller;
  };
  struct OptIn {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
  };

  std::vector<Launch> Launches;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<OptIn>> OptIns;
  StaticSharedMemory StaticShared;
};

} // namespace warplint::memory
