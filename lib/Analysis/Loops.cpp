#include "Analysis/Loops.h"
#include "Analysis/BodyWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warplint {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

bool runsBodyOnce(const DoStmt *Do, const ASTContext &Ctx) {
  bool Value = true;
  const Expr *Cond = Do->getCond();
  return !Cond->isValueDependent() &&
         Cond->EvaluateAsBooleanCondition(Value, Ctx) && !Value;
}

DeclSet loopCounters(const Stmt *Loop) {
  DeclSet Out;
  auto Step = [&](const Stmt *N) {
    if (const auto *U = dyn_cast<UnaryOperator>(N)) {
      if (U->isIncrementDecrementOp())
        if (const ValueDecl *D = baseDecl(U->getSubExpr()))
          Out.insert(D);
    } else if (const auto *B = dyn_cast<BinaryOperator>(N)) {
      if (B->isCompoundAssignmentOp())
        if (const ValueDecl *D = baseDecl(B->getLHS()))
          Out.insert(D);
    }
  };
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit()))
      for (const Decl *D : Init->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Out.insert(V);
    forEachStmt(For->getInc(), [&](const Stmt *N) {
      Step(N);
      if (const auto *B = dyn_cast<BinaryOperator>(N))
        if (B->isAssignmentOp())
          if (const ValueDecl *D = baseDecl(B->getLHS()))
            Out.insert(D);
    });
    Body = For->getBody();
  } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Body = W->getBody();
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    Body = D->getBody();
  }
  forEachStmt(Body, [&](const Stmt *S) {
    if (isLoop(S))
      return WalkStep::SkipChildren; // its steps are its own
    Step(S);
    return WalkStep::Continue;
  });
  return Out;
}

bool runsOnceInLoop(const IfStmt *If, const Stmt *Loop) {
  DeclSet Read;
  forEachStmt(If->getCond(), [&](const Stmt *N) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      Read.insert(Ref->getDecl());
    else if (const auto *M = dyn_cast<MemberExpr>(N))
      Read.insert(M->getMemberDecl());
  });
  for (const ValueDecl *D : Read)
    if (writesTo(If->getThen(), D))
      return true;
  if (!Loop)
    return false;
  DeclSet Counters = loopCounters(Loop);
  bool Compared = false;
  forEachStmt(If->getCond(), [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N))
      Compared |= B->getOpcode() == BO_EQ && referencesAny(B, Counters);
    else if (const auto *U = dyn_cast<UnaryOperator>(N))
      Compared |= U->getOpcode() == UO_LNot &&
                  isa<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()) &&
                  referencesAny(U, Counters);
  });
  return Compared;
}

std::optional<uint64_t> constantTripCount(
    const Stmt *Loop, const ASTContext &Ctx,
    llvm::function_ref<std::optional<uint64_t>(const Expr *)> ValueOf) {
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop)) {
    const Expr *Range = R->getRangeInit()->IgnoreImplicit();
    if (const auto *T = Ctx.getAsConstantArrayType(Range->getType()))
      return T->getSize().getZExtValue();
    if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(Range))
      if (const auto *Init =
              dyn_cast<InitListExpr>(List->getSubExpr()->IgnoreImplicit()))
        return Init->getNumInits();
    return std::nullopt;
  }
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getCond() || !For->getInc())
    return std::nullopt;
  // for (i = A; i < B; ++i / i += S), in the common spellings.
  const VarDecl *Counter = nullptr;
  std::optional<uint64_t> From;
  if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (Init->isSingleDecl())
      if ((Counter = dyn_cast<VarDecl>(Init->getSingleDecl())))
        From = ValueOf(Counter->getInit());
  } else if (const auto *Assign =
                 dyn_cast_or_null<BinaryOperator>(For->getInit())) {
    if (Assign->getOpcode() == BO_Assign)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts())) {
        Counter = dyn_cast<VarDecl>(Ref->getDecl());
        From = ValueOf(Assign->getRHS());
      }
  }
  const auto *Cond =
      dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Counter || !From || !Cond)
    return std::nullopt;
  const auto *Left =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  std::optional<uint64_t> To = ValueOf(Cond->getRHS());
  if (!Left || Left->getDecl() != Counter || !To)
    return std::nullopt;
  uint64_t Step = 0;
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc)) {
    if (U->isIncrementOp())
      Step = 1;
  } else if (const auto *B = dyn_cast<CompoundAssignOperator>(Inc)) {
    if (B->getOpcode() == BO_AddAssign)
      Step = ValueOf(B->getRHS()).value_or(0);
  }
  if (!Step || *To < *From)
    return std::nullopt;
  uint64_t Span = *To - *From + (Cond->getOpcode() == BO_LE ? 1 : 0);
  if (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE &&
      Cond->getOpcode() != BO_NE)
    return std::nullopt;
  return (Span + Step - 1) / Step;
}

} // namespace warplint
