#include "Analysis/Launches.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint {

namespace {
AST_MATCHER(CallExpr, isKernelLaunch) { return isLaunch(&Node); }
} // namespace

StatementMatcher launchMatcher() {
  return callExpr(unless(isExpansionInSystemHeader()), isKernelLaunch())
      .bind("launch");
}

const FunctionDecl *kernelNamedBy(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Addr = dyn_cast<UnaryOperator>(E))
    E = Addr->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return F->getCanonicalDecl();
  return nullptr;
}

bool isLaunch(const CallExpr *Call) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || Call->getNumArgs() < 3 || !F->getDeclName().isIdentifier())
    return false;
  StringRef Name = F->getName();
  return (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") &&
         F->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

LaunchSite launchSite(const CallExpr *Call) {
  LaunchSite S;
  if (const auto *L = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const CallExpr *Config = L->getConfig();
    S.Kernel = L->getDirectCallee();
    if (Config && Config->getNumArgs() >= 2) {
      S.Grid = Config->getArg(0);
      S.Block = Config->getArg(1);
      if (Config->getNumArgs() >= 3 &&
          !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        S.SharedBytes = Config->getArg(2);
    }
  } else if (Call->getNumArgs() >= 3) {
    S.Kernel = kernelNamedBy(Call->getArg(0));
    S.Grid = Call->getArg(1);
    S.Block = Call->getArg(2);
    if (Call->getNumArgs() >= 5 && !isa<CXXDefaultArgExpr>(Call->getArg(4)))
      S.SharedBytes = Call->getArg(4);
  }
  if (S.Kernel)
    S.Kernel = S.Kernel->getCanonicalDecl();
  return S;
}

std::optional<SharedOptIn> sharedOptIn(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier() ||
      Callee->getName() != "cudaFuncSetAttribute" || Call->getNumArgs() != 3)
    return std::nullopt;
  const auto *Attr =
      dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
  if (!Attr || Attr->getDecl()->getName() !=
                   "cudaFuncAttributeMaxDynamicSharedMemorySize")
    return std::nullopt;
  const FunctionDecl *K = kernelNamedBy(Call->getArg(0));
  if (!K)
    return std::nullopt;
  return SharedOptIn{K, Call->getArg(2)};
}

} // namespace warplint
