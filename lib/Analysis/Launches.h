// Kernel launches in host code, in their four spellings: k<<<g, b, s>>>(...),
// cudaLaunchKernel(k, g, b, args, s, stream), cudaLaunchCooperativeKernel
// with the same arguments, and cudaLaunchKernelEx(&config, k, args...) whose
// shape is the fields of a local cudaLaunchConfig_t set once in the function.
#pragma once
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>

namespace warplint {

struct LaunchSite {
  const clang::FunctionDecl *Kernel = nullptr; // canonical; null if unknown
  const clang::Expr *Grid = nullptr;
  const clang::Expr *Block = nullptr;
  const clang::Expr *SharedBytes = nullptr; // null: none given (0)
};

// Matches every launch outside system headers, bound to "launch".
clang::ast_matchers::StatementMatcher launchMatcher();

// The kernel a function argument names: k, &k, (void *)k; null otherwise.
const clang::FunctionDecl *kernelNamedBy(const clang::Expr *E);

// Whether Call is a launch in one of the three spellings.
bool isLaunch(const clang::CallExpr *Call);

// The parts of a call matched by launchMatcher().
LaunchSite launchSite(const clang::CallExpr *Call);

// cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n):
// the kernel it opts in (canonical) and n; nullopt for any other call.
struct SharedOptIn {
  const clang::FunctionDecl *Kernel;
  const clang::Expr *Bytes;
};
std::optional<SharedOptIn> sharedOptIn(const clang::CallExpr *Call);

} // namespace warplint
