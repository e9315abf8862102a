#include "Analysis/Launches.h"
#include "clang/AST/ExprCXX.h"
#include <functional>

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

namespace {

enum class LaunchApi { None, Classic, Ex };

// cudaLaunchKernel / cudaLaunchCooperativeKernel(k, grid, block, args, smem,
// stream), or cudaLaunchKernelEx(&config, k, args...) (the C++ template and
// the C API, per-thread default stream spelling included).
LaunchApi launchApi(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier() ||
      !F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return LaunchApi::None;
  StringRef Name = F->getName();
  if ((Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") &&
      Call->getNumArgs() >= 3)
    return LaunchApi::Classic;
  if ((Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC" ||
       Name == "cudaLaunchKernelExC_ptsz") &&
      Call->getNumArgs() >= 2)
    return LaunchApi::Ex;
  return LaunchApi::None;
}

// The value a cudaLaunchConfig_t local's field has at the launch, when the
// function sets it once: in the variable's initialiser, or by one
// assignment `config.field = value` (nothing else writing the field).
const Expr *configField(const VarDecl *Config, StringRef Field) {
  const auto *Record = Config->getType()->getAsRecordDecl();
  if (!Record)
    return nullptr;
  const Expr *FromInit = nullptr;
  if (const auto *Init = dyn_cast_or_null<InitListExpr>(
          Config->getInit() ? Config->getInit()->IgnoreImplicit() : nullptr)) {
    unsigned Index = 0;
    for (const FieldDecl *FD : Record->fields()) {
      if (FD->getName() == Field && Index < Init->getNumInits() &&
          !isa<ImplicitValueInitExpr>(Init->getInit(Index)))
        FromInit = Init->getInit(Index);
      ++Index;
    }
  }
  const auto *Fn =
      dyn_cast_or_null<FunctionDecl>(Config->getParentFunctionOrMethod());
  if (!Fn || !Fn->getBody())
    return FromInit;
  const Expr *Assigned = nullptr;
  unsigned Writes = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Op = dyn_cast<BinaryOperator>(S);
        Op && Op->isAssignmentOp()) {
      // Any write into the field: config.field = v, config.field.x = v.
      const Expr *L = Op->getLHS()->IgnoreParenImpCasts();
      bool Whole = true;
      while (const auto *M = dyn_cast<MemberExpr>(L)) {
        const auto *Base =
            dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
        if (Base && Base->getDecl() == Config &&
            M->getMemberDecl()->getName() == Field) {
          ++Writes;
          Assigned =
              Whole && Op->getOpcode() == BO_Assign ? Op->getRHS() : nullptr;
          break;
        }
        L = M->getBase()->IgnoreParenImpCasts();
        Whole = false;
      }
    }
    if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
        Call && Call->isAssignmentOp() && Call->getNumArgs() == 2) {
      const auto *M =
          dyn_cast<MemberExpr>(Call->getArg(0)->IgnoreParenImpCasts());
      const auto *Base =
          M ? dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts())
            : nullptr;
      if (Base && Base->getDecl() == Config &&
          M->getMemberDecl()->getName() == Field) {
        ++Writes;
        Assigned = Call->getArg(1);
      }
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Fn->getBody());
  if (Writes == 0)
    return FromInit;
  return Writes == 1 ? Assigned : nullptr;
}

} // namespace

bool isLaunch(const CallExpr *Call) {
  return isa<CUDAKernelCallExpr>(Call) || launchApi(Call) != LaunchApi::None;
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
  } else if (launchApi(Call) == LaunchApi::Ex) {
    S.Kernel = kernelNamedBy(Call->getArg(1));
    const Expr *Arg = Call->getArg(0)->IgnoreParenImpCasts();
    const auto *Addr = dyn_cast<UnaryOperator>(Arg);
    const auto *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    if (const auto *Config = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        Config && Config->isLocalVarDecl()) {
      S.Grid = configField(Config, "gridDim");
      S.Block = configField(Config, "blockDim");
      S.SharedBytes = configField(Config, "dynamicSmemBytes");
    }
  } else if (launchApi(Call) == LaunchApi::Classic) {
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
