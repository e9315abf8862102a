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

class DynamicSharedOptinCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit() override;

private:
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
