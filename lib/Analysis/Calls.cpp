#include "Analysis/Calls.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/LocalWrites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

llvm::StringRef globalCalleeName(const CallExpr *Call) {
  if (const FunctionDecl *F = Call->getDirectCallee())
    return F->getDeclName().isIdentifier() &&
                   F->getDeclContext()->getRedeclContext()->isTranslationUnit()
               ? F->getName()
               : llvm::StringRef();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(
          Call->getCallee()->IgnoreParenImpCasts()))
    if (!U->getQualifierLoc() && U->getName().isIdentifier())
      return U->getName().getAsIdentifierInfo()->getName();
  return {};
}

const Expr *callArgument(const CallExpr *Call, int Index) {
  if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
    return nullptr;
  const Expr *E = Call->getArg(Index);
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return D->getExpr();
  return E;
}

std::optional<uint64_t> constantThroughLocals(
    const Expr *E, const Stmt *Body,
    llvm::function_ref<std::optional<uint64_t>(const Expr *)> ValueOf) {
  if (!E)
    return std::nullopt;
  if (std::optional<uint64_t> V = ValueOf(E))
    return V;
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Body || !Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType().isVolatileQualified() ||
      !Var->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  std::optional<uint64_t> Value;
  bool Agree = true;
  auto Take = [&](const Expr *Rhs) {
    std::optional<uint64_t> V = ValueOf(Rhs);
    if (!V || (Value && *Value != *V))
      Agree = false;
    else
      Value = V;
  };
  if (const Expr *Init = Var->getInit())
    Take(Init);
  size_t Assigned = 0;
  forEachStmt(Body, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N))
      if (B->getOpcode() == BO_Assign)
        if (const auto *L =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == Var) {
          ++Assigned;
          Take(B->getRHS());
        }
  });
  // Every write is one of those assignments: nothing else changes it.
  if (!Agree || !Value || LocalWrites(Body).writes(Var).size() != Assigned)
    return std::nullopt;
  return Value;
}

} // namespace warplint
