#include "Analysis/DeclRefs.h"
#include "Analysis/BodyWalk.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

const ValueDecl *baseDecl(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Deref)
        return nullptr;
      E = U->getSubExpr();
    } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        return M->getMemberDecl();
      E = M->getBase();
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = MC->getImplicitObjectArgument();
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      return Ref->getDecl();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool referencesAny(const Stmt *S, const DeclSet &Decls, const Stmt *Skip) {
  bool Found = false;
  forEachStmt(S, [&](const Stmt *N) {
    if (N == Skip)
      return WalkStep::SkipChildren;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      Found |= Decls.contains(Ref->getDecl());
    else if (const auto *M = dyn_cast<MemberExpr>(N))
      Found |= Decls.contains(M->getMemberDecl());
    return WalkStep::Continue;
  });
  return Found;
}

bool writesTo(const Stmt *S, const ValueDecl *D) {
  bool Found = false;
  forEachStmt(S, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N))
      Found |= B->isAssignmentOp() && baseDecl(B->getLHS()) == D;
    else if (const auto *U = dyn_cast<UnaryOperator>(N))
      Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               baseDecl(U->getSubExpr()) == D;
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(N))
      Found |= Op->isAssignmentOp() && baseDecl(Op->getArg(0)) == D;
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(N))
      Found |= MC->getMethodDecl() && !MC->getMethodDecl()->isConst() &&
               baseDecl(MC->getImplicitObjectArgument()) == D;
  });
  return Found;
}

} // namespace warplint
