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

void collectWrites(const Stmt *S, DeclSet &Out, WriteScan How) {
  auto Add = [&](const Expr *E) {
    if (const ValueDecl *D = baseDecl(E))
      Out.insert(D);
  };
  WalkOptions Opts;
  if (How.EnterLambdas)
    Opts.enterLambdas();
  forEachStmt(S, Opts, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N)) {
      if (B->isAssignmentOp())
        Add(B->getLHS());
    } else if (const auto *U = dyn_cast<UnaryOperator>(N)) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
        Add(U->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(N)) {
      if (Op->isAssignmentOp())
        Add(Op->getArg(0));
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(N)) {
      if (MC->getMethodDecl() && !MC->getMethodDecl()->isConst())
        Add(MC->getImplicitObjectArgument());
    } else if (const auto *DS = dyn_cast<DeclStmt>(N);
               DS && How.BoundReferences) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->getType()->isReferenceType() && V->getInit())
          Add(V->getInit());
    }
  });
}

bool writesTo(const Stmt *S, const ValueDecl *D) {
  DeclSet Written;
  collectWrites(S, Written);
  return Written.contains(D);
}

} // namespace warplint
