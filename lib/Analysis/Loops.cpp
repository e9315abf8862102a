#include "Analysis/Loops.h"
#include "Analysis/BodyWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace warplint {

std::optional<ForCounter> forCounter(const ForStmt *For) {
  const VarDecl *V = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    V = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = V ? V->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      V = dyn_cast<VarDecl>(DRE->getDecl());
    Start = BO->getRHS();
  }
  if (!V || !Start)
    return std::nullopt;
  return ForCounter{V, Start};
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

const Stmt *loopBody(const Stmt *S) {
  if (const auto *For = dyn_cast<ForStmt>(S))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return Range->getBody();
  return nullptr;
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

bool variesWithLoop(const Expr *E, const Stmt *Loop) {
  DeclSet Counters = loopCounters(Loop);
  // The locals Loop declares, each with its initialiser (or none).
  llvm::DenseMap<const VarDecl *, const Expr *> Inside;
  forEachStmt(Loop, [&](const Stmt *N) {
    if (const auto *DS = dyn_cast<DeclStmt>(N))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Inside[V] = V->getInit();
  });
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  llvm::SmallVector<const Stmt *, 4> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    bool Varies = false;
    forEachStmt(S, [&](const Stmt *N) {
      const auto *DRE = dyn_cast<DeclRefExpr>(N);
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!V || !Seen.insert(V).second)
        return WalkStep::Continue;
      if (Counters.contains(V) || writesTo(Loop, V)) {
        Varies = true;
        return WalkStep::Stop;
      }
      if (auto It = Inside.find(V); It != Inside.end() && It->second)
        Work.push_back(It->second);
      return WalkStep::Continue;
    });
    if (Varies)
      return true;
  }
  return false;
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

namespace {

const Expr *loopCondition(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getCond();
  return nullptr;
}

// Calls Fn on the statements that run each iteration of Loop, outside the
// loops nested in it: a for loop's increment and the body.
void forEachStep(const Stmt *Loop, llvm::function_ref<void(const Stmt *)> Fn) {
  auto Walk = [&](const Stmt *Root) {
    forEachStmt(Root, [&](const Stmt *S) {
      if (S != Root && isLoop(S))
        return WalkStep::SkipChildren;
      Fn(S);
      return WalkStep::Continue;
    });
  };
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    Walk(For->getInc());
    Walk(For->getBody());
  } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Walk(W->getBody());
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    Walk(D->getBody());
  }
}

bool isScaling(BinaryOperatorKind Op) {
  return Op == BO_Mul || Op == BO_Div || Op == BO_Shl || Op == BO_Shr ||
         Op == BO_MulAssign || Op == BO_DivAssign || Op == BO_ShlAssign ||
         Op == BO_ShrAssign;
}

} // namespace

void chainOperands(const Expr *E, BinaryOperatorKind Op,
                   llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == Op) {
    chainOperands(BO->getLHS(), Op, Out);
    chainOperands(BO->getRHS(), Op, Out);
    return;
  }
  Out.push_back(E);
}

bool isGeometric(const Stmt *Loop) {
  const Expr *Cond = loopCondition(Loop);
  if (!Cond)
    return false;
  DeclSet Read;
  forEachStmt(Cond, [&](const Stmt *N) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      Read.insert(Ref->getDecl());
    else if (const auto *M = dyn_cast<MemberExpr>(N))
      Read.insert(M->getMemberDecl());
  });
  bool Scaled = false, Added = false;
  forEachStep(Loop, [&](const Stmt *S) {
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp())
        Added |= Read.count(baseDecl(U->getSubExpr())) > 0;
      return;
    }
    const auto *B = dyn_cast<BinaryOperator>(S);
    if (!B || !B->isAssignmentOp())
      return;
    const ValueDecl *D = baseDecl(B->getLHS());
    if (!D || !Read.count(D))
      return;
    const auto *R =
        dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    DeclSet Self;
    Self.insert(D);
    if (B->isCompoundAssignmentOp()) {
      Scaled |= isScaling(B->getOpcode());
      // count += count / 100: a step that is a share of the value itself
      // grows it geometrically (a sweep over problem sizes).
      bool Share = B->getOpcode() == BO_AddAssign && R &&
                   isScaling(R->getOpcode()) && referencesAny(R, Self);
      Scaled |= Share;
      Added |= !Share && (B->getOpcode() == BO_AddAssign ||
                          B->getOpcode() == BO_SubAssign);
      return;
    }
    // n = (n + 255) / 256, size = size * 2.
    if (R && isScaling(R->getOpcode()) && referencesAny(R, Self))
      Scaled = true;
  });
  return Scaled && !Added;
}

bool repeatsSameWork(const Stmt *Loop) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getInc())
    return false;
  DeclSet Counters;
  forEachStmt(For->getInc(), [&](const Stmt *N) {
    if (const auto *U = dyn_cast<UnaryOperator>(N)) {
      if (U->isIncrementDecrementOp())
        if (const ValueDecl *D = baseDecl(U->getSubExpr()))
          Counters.insert(D);
    } else if (const auto *B = dyn_cast<BinaryOperator>(N)) {
      if (B->isAssignmentOp())
        if (const ValueDecl *D = baseDecl(B->getLHS()))
          Counters.insert(D);
    }
  });
  return !Counters.empty() && !referencesAny(For->getBody(), Counters);
}

bool bracketedBy(const Stmt *Body, const Stmt *Loop,
                 llvm::function_ref<bool(const Stmt *)> IsMark) {
  // The block that holds the loop, and the loop's statement in it (the loop
  // itself, or a label or attribute around it).
  const CompoundStmt *Block = nullptr;
  const Stmt *Own = nullptr;
  forEachStmt(Body, [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Up) {
    if (S != Loop)
      return WalkStep::Continue;
    const Stmt *Child = S;
    for (size_t I = Up.size(); I-- > 0; Child = Up[I])
      if (const auto *C = dyn_cast<CompoundStmt>(Up[I])) {
        Block = C;
        Own = Child;
        break;
      } else if (!isa<AttributedStmt, LabelStmt>(Up[I])) {
        break;
      }
    return WalkStep::Stop;
  });
  if (!Block)
    return false;
  llvm::SmallVector<const Stmt *, 16> Stmts(Block->body_begin(),
                                            Block->body_end());
  auto Pos = llvm::find(Stmts, Own);
  auto Contains = [](const Stmt *S) {
    return findStmt(S, WalkOptions(), [](const Stmt *N) { return isLoop(N); });
  };
  auto Scan = [&](auto Begin, auto End) {
    for (auto It = Begin; It != End; ++It) {
      if (IsMark(*It))
        return true;
      if (Contains(*It))
        return false;
    }
    return false;
  };
  return Scan(std::make_reverse_iterator(Pos), Stmts.rend()) &&
         Scan(std::next(Pos), Stmts.end());
}

} // namespace warplint
