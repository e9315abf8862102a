// Lane evaluation of loops: who runs a loop how many times, which lanes are
// active at a statement, the values a counted loop gives its counter
// (LaneEval.h).
#include "Analysis/BodyWalk.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/LaneEval.h"
#include "Analysis/Loops.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
#include <vector>

using namespace clang;

namespace warplint {

// A counter's next value after `X op= K` (+=, -=, *=, /=, <<=, >>=), or
// nothing for another operator or a K that step cannot take.
static std::optional<int64_t> stepCounter(BinaryOperatorKind Op, int64_t X,
                                          int64_t K) {
  switch (Op) {
  case BO_AddAssign:
    return X + K;
  case BO_SubAssign:
    return X - K;
  case BO_MulAssign:
    return X * K;
  case BO_DivAssign:
    return K ? std::optional<int64_t>(X / K) : std::nullopt;
  case BO_ShlAssign:
    return K >= 0 && K < 32 ? std::optional<int64_t>(X << K) : std::nullopt;
  case BO_ShrAssign:
    return K >= 0 && K < 63 ? std::optional<int64_t>(X >> K) : std::nullopt;
  default:
    return std::nullopt;
  }
}

LaneSplit LaneEvaluator::tripSplit(const ForStmt *For) {
  constexpr int64_t MaxTrips = 4096;
  std::optional<ForCounter> C = forCounter(For);
  const Expr *Cond = For->getCond(), *Inc = For->getInc();
  if (!C || !Cond || !Inc || Cond->isValueDependent() ||
      Inc->isValueDependent() || C->Start->isValueDependent() ||
      !C->Var->getType()->isIntegerType() || writesTo(For->getBody(), C->Var))
    return LaneSplit();
  const VarDecl *V = C->Var;
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  // The next value of the counter in thread T, with the counter fixed.
  auto Next = [&](int64_t X, const ThreadId &T) -> std::optional<int64_t> {
    const Expr *I = Inc->IgnoreParens();
    if (const auto *UO = dyn_cast<UnaryOperator>(I);
        UO && IsV(UO->getSubExpr()))
      return UO->isIncrementOp() ? X + 1 : X - 1;
    const auto *CA = dyn_cast<CompoundAssignOperator>(I);
    if (!CA || !IsV(CA->getLHS()))
      return std::nullopt;
    std::optional<int64_t> K = eval(CA->getRHS(), T);
    return K ? stepCounter(CA->getOpcode(), X, *K) : std::nullopt;
  };
  auto Trips = [&](const ThreadId &T) -> std::optional<int64_t> {
    std::optional<int64_t> X = eval(C->Start, T);
    int64_t N = 0;
    while (X && N <= MaxTrips) {
      fix(V, *X);
      std::optional<int64_t> Holds = eval(Cond, T);
      if (!Holds)
        X = std::nullopt;
      else if (!*Holds)
        break;
      else {
        ++N;
        X = Next(*X, T);
      }
    }
    Fixed.erase(V);
    if (!X || N > MaxTrips)
      return std::nullopt;
    return N;
  };
  LaneSplit S;
  for (unsigned W = 0, Warps = warpCount(); W < Warps; ++W) {
    uint64_t Lanes = 0;
    llvm::SmallVector<int64_t, 64> Count(WarpSize, -1);
    int64_t Max = -1;
    llvm::SmallDenseSet<int64_t, 4> Values;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<ThreadId> T = thread(W, L);
      if (!T)
        continue;
      std::optional<int64_t> N = Trips(*T);
      if (!N)
        return LaneSplit();
      Lanes |= uint64_t(1) << L;
      Count[L] = *N;
      Max = std::max(Max, *N);
      Values.insert(*N);
    }
    if (!Lanes)
      break;
    ++S.WarpsChecked;
    if (Values.size() > 1 && S.WarpsSplit++ == 0) {
      S.FirstWarp = W;
      S.Lanes = Lanes;
      S.Paths = Values.size();
      for (unsigned L = 0; L < WarpSize; ++L)
        if (Count[L] == Max)
          S.TrueLanes |= uint64_t(1) << L;
    }
  }
  S.Known = S.WarpsChecked > 0;
  return S;
}

std::optional<uint64_t>
LaneEvaluator::activeLanes(const Stmt *S, FunctionDependence &FD, unsigned W) {
  uint64_t Active = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (thread(W, L))
      Active |= uint64_t(1) << L;
  auto Filter = [&](const Expr *Cond, bool Want) -> bool {
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Active >> L & 1))
        continue;
      auto V = eval(Cond, *thread(W, L));
      if (!V)
        return false;
      if (bool(*V) != Want)
        Active &= ~(uint64_t(1) << L);
    }
    return true;
  };
  const Stmt *Child = S;
  for (const Stmt *P = FD.parent(S); P; Child = P, P = FD.parent(P)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen() && !Filter(If->getCond(), true))
        return std::nullopt;
      if (Child == If->getElse() && !Filter(If->getCond(), false))
        return std::nullopt;
    } else if (isa<SwitchStmt, AbstractConditionalOperator>(P)) {
      return std::nullopt;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS() &&
          !Filter(BO->getLHS(), BO->getOpcode() == BO_LAnd))
        return std::nullopt;
    }
  }
  // Returns before S: the lanes that took them are gone (a kernel's threads
  // have exited, a helper's are back in its caller).
  for (const auto &G : FD.guardSites(S))
    if (G.Kind == FunctionDependence::GuardKind::EarlyExit)
      return std::nullopt; // a helper's return, a goto: not followed
  const SourceManager &SM = F->getASTContext().getSourceManager();
  std::function<bool(const Stmt *)> Returns = [&](const Stmt *Cur) -> bool {
    if (!Cur || isa<LambdaExpr>(Cur))
      return true;
    if (const auto *R = dyn_cast<ReturnStmt>(Cur)) {
      if (!SM.isBeforeInTranslationUnit(R->getBeginLoc(), S->getBeginLoc()))
        return true;
      // The lanes that reach the return leave.
      auto Gone = activeLanes(R, FD, W);
      if (!Gone)
        return false;
      Active &= ~*Gone;
      return true;
    }
    for (const Stmt *C : Cur->children())
      if (!Returns(C))
        return false;
    return true;
  };
  if (FD.function()->hasAttr<CUDAGlobalAttr>() &&
      !Returns(FD.function()->getBody()))
    return std::nullopt;
  return Active;
}

llvm::ArrayRef<const ReturnStmt *>
LaneEvaluator::returnsOf(const FunctionDecl *Fn) {
  auto It = Returns.find(Fn);
  if (It != Returns.end())
    return It->second;
  std::vector<const ReturnStmt *> List;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      List.push_back(R);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Fn->getBody());
  return Returns[Fn] = std::move(List);
}

std::optional<std::vector<int64_t>>
LaneEvaluator::countedValues(const ForStmt *For) {
  constexpr size_t MaxIterations = 1024;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *V = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  const Expr *Inc = For->getInc();
  if (!V || !V->getInit() || !V->getType()->isIntegerType() || !Cond ||
      !Cond->isComparisonOp() || !Inc || V->getInit()->isValueDependent() ||
      Cond->isValueDependent() || Inc->isValueDependent())
    return std::nullopt;
  const ASTContext &Ctx = V->getASTContext();
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  std::optional<int64_t> Start = Constant(V->getInit());
  // The comparison as `V Op Bound`.
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> Bound;
  if (IsV(Cond->getLHS())) {
    Bound = Constant(Cond->getRHS());
  } else if (IsV(Cond->getRHS())) {
    Bound = Constant(Cond->getLHS());
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Start || !Bound)
    return std::nullopt;
  // The step: ++/-- or a compound assignment by a constant.
  std::function<int64_t(int64_t)> Step;
  const Expr *I = Inc->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(I);
      UO && IsV(UO->getSubExpr())) {
    if (UO->isIncrementOp())
      Step = [](int64_t X) { return X + 1; };
    else if (UO->isDecrementOp())
      Step = [](int64_t X) { return X - 1; };
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(I);
             CA && IsV(CA->getLHS())) {
    std::optional<int64_t> C = Constant(CA->getRHS());
    if (!C)
      return std::nullopt;
    BinaryOperatorKind Op = CA->getOpcode();
    int64_t K = *C;
    if (stepCounter(Op, 0, K)) // a step the counter can take
      Step = [Op, K](int64_t X) { return *stepCounter(Op, X, K); };
  }
  if (!Step)
    return std::nullopt;
  // Written nowhere but in the increment.
  const FunctionDecl *Owner = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!Owner || !Owner->getBody())
    return std::nullopt;
  std::unique_ptr<LocalWrites> &LW = Writes[Owner];
  if (!LW)
    LW = std::make_unique<LocalWrites>(Owner->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  for (const DeclRefExpr *W : LW->writes(V))
    if (SM.isBeforeInTranslationUnit(W->getBeginLoc(), Inc->getBeginLoc()) ||
        SM.isBeforeInTranslationUnit(Inc->getEndLoc(), W->getBeginLoc()))
      return std::nullopt;
  auto Holds = [&](int64_t X) {
    switch (Op) {
    case BO_LT:
      return X < *Bound;
    case BO_LE:
      return X <= *Bound;
    case BO_GT:
      return X > *Bound;
    case BO_GE:
      return X >= *Bound;
    case BO_NE:
      return X != *Bound;
    default:
      return false;
    }
  };
  std::vector<int64_t> Values;
  for (std::optional<int64_t> X = wrapTo(*Start, V->getType(), Ctx);
       X && Holds(*X); X = wrapTo(Step(*X), V->getType(), Ctx)) {
    if (Values.size() == MaxIterations ||
        (!Values.empty() && Values.back() == *X))
      return std::nullopt; // too long, or stuck
    Values.push_back(*X);
  }
  return Values;
}

std::optional<bool> LaneEvaluator::holdsInSomeIteration(
    const Expr *Cond, bool Want, const ThreadId &T, const Bindings *B,
    llvm::ArrayRef<std::pair<const VarDecl *, std::vector<int64_t>>> Loops) {
  constexpr size_t MaxCombinations = 4096;
  size_t Combinations = 1;
  for (const auto &[V, Values] : Loops) {
    if (Values.empty())
      return false; // the loop body never runs
    Combinations *= Values.size();
    if (Combinations > MaxCombinations)
      return std::nullopt;
  }
  llvm::DenseMap<const VarDecl *, int64_t> Saved = Fixed;
  std::optional<bool> Result = false;
  for (size_t N = 0; N < Combinations && Result == false; ++N) {
    for (size_t K = 0, Rest = N; K < Loops.size(); ++K) {
      size_t I = Loops.size() - 1 - K;
      Fixed[Loops[I].first] = Loops[I].second[Rest % Loops[I].second.size()];
      Rest /= Loops[I].second.size();
    }
    std::optional<int64_t> V = evalIn(Cond, T, B, 0);
    if (!V)
      Result = std::nullopt;
    else if (bool(*V) == Want)
      Result = true;
  }
  Fixed = std::move(Saved);
  return Result;
}

uint64_t LaneEvaluator::mayReachIn(const Stmt *S, FunctionDependence &FD,
                                   uint64_t Entry,
                                   llvm::ArrayRef<Bindings> Binds, unsigned W,
                                   bool &Exact, unsigned Context) {
  uint64_t Active = Entry;
  // The counted loops around S, from the outermost, for conditions on
  // their counters (`if (tx <= m)` in `for (m = 0; m < 16; m++)`): a lane
  // may reach S if the condition lets it through in some iteration.
  std::optional<std::vector<std::pair<const VarDecl *, std::vector<int64_t>>>>
      Loops; // found at the first condition that needs them
  auto CountedLoops = [&]() -> const auto & {
    if (!Loops) {
      Loops.emplace();
      for (const Stmt *P = FD.parent(S); P; P = FD.parent(P))
        if (const auto *For = dyn_cast<ForStmt>(P))
          if (auto Values = countedValues(For))
            Loops->insert(
                Loops->begin(),
                {cast<VarDecl>(cast<DeclStmt>(For->getInit())->getSingleDecl()),
                 std::move(*Values)});
    }
    return *Loops;
  };
  // Cond in every lane of warp W, where only the thread and the call chain
  // that bound Binds decide it.
  auto Guard =
      [&](const Expr *Cond) -> const std::vector<std::optional<int64_t>> * {
    if (Context == NoContext || !Fixed.empty())
      return nullptr;
    auto [It, New] = Guards.try_emplace({Cond, W, Context});
    if (New) {
      It->second.resize(WarpSize);
      for (unsigned L = 0; L < WarpSize; ++L)
        if (std::optional<ThreadId> T = thread(W, L))
          It->second[L] =
              evalIn(Cond, *T, Binds.empty() ? nullptr : &Binds[L], 0);
    }
    return &It->second;
  };
  // Keeps the lanes where Cond is Want in some iteration of the counted
  // loops around S; a lane where it cannot be evaluated stays.
  auto Filter = [&](const Expr *Cond, bool Want) {
    const std::vector<std::optional<int64_t>> *Known = Guard(Cond);
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Active >> L & 1))
        continue;
      std::optional<ThreadId> T = thread(W, L);
      const Bindings *B = Binds.empty() ? nullptr : &Binds[L];
      std::optional<int64_t> V = Known ? (*Known)[L]
                                 : T   ? evalIn(Cond, *T, B, 0)
                                       : std::nullopt;
      if (!V) {
        Exact = false;
        if (T && !CountedLoops().empty() &&
            holdsInSomeIteration(Cond, Want, *T, B, *Loops) == false)
          Active &= ~(uint64_t(1) << L);
      } else if (bool(*V) != Want)
        Active &= ~(uint64_t(1) << L);
    }
  };
  const Stmt *Child = S;
  for (const Stmt *P = FD.parent(S); P; Child = P, P = FD.parent(P)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P)) {
      Exact = false; // its lanes may leave or skip: a superset
    } else if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        Filter(If->getCond(), true);
      else if (Child == If->getElse())
        Filter(If->getCond(), false);
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr())
        Filter(CO->getCond(), true);
      else if (Child == CO->getFalseExpr())
        Filter(CO->getCond(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        Filter(BO->getLHS(), BO->getOpcode() == BO_LAnd);
    }
  }
  // The lanes that took a return before S have left (a kernel's threads
  // have exited, a helper's are back in its caller); only a return whose
  // lanes are known exactly is subtracted.
  const SourceManager &SM = F->getASTContext().getSourceManager();
  for (const ReturnStmt *R : returnsOf(FD.function())) {
    if (!SM.isBeforeInTranslationUnit(R->getBeginLoc(), S->getBeginLoc()))
      break;
    if (!SM.isBeforeInTranslationUnit(R->getEndLoc(), S->getBeginLoc()))
      continue; // S is in this return's value
    bool ExactR = true;
    uint64_t Gone = mayReachIn(R, FD, Entry, Binds, W, ExactR, Context);
    if (ExactR)
      Active &= ~Gone;
    else
      Exact = false;
  }
  return Active;
}

uint64_t LaneEvaluator::mayReach(const Stmt *S, llvm::ArrayRef<CallLink> Chain,
                                 ThreadDependenceAnalysis &TDA, unsigned W) {
  // What the chain leaves is the same for every statement of its last
  // callee: computed once per chain and warp (with no fixed values).
  std::vector<const CallExpr *> Calls;
  for (const CallLink &Link : Chain)
    Calls.push_back(Link.Call);
  unsigned Context =
      Contexts.try_emplace(std::move(Calls), unsigned(Contexts.size()))
          .first->second;
  bool Cache = Fixed.empty();
  ChainEntry Computed;
  ChainEntry *E = &Computed;
  bool Known = false;
  if (Cache) {
    auto [It, New] = Chains.try_emplace({Context, W});
    E = &It->second;
    Known = !New;
  }
  if (!Known) {
    for (unsigned L = 0; L < WarpSize; ++L)
      if (thread(W, L))
        E->Active |= uint64_t(1) << L;
    for (const CallLink &Link : Chain) {
      if (!E->Active)
        break;
      E->Active = mayReachIn(Link.Call, TDA.forFunction(Link.Caller), E->Active,
                             E->Binds, W, E->Exact, NoContext);
      std::vector<Bindings> Next(WarpSize);
      for (unsigned L = 0; L < WarpSize; ++L) {
        std::optional<ThreadId> T = thread(W, L);
        if (!T || !(E->Active >> L & 1))
          continue;
        for (unsigned I = 0; I < Link.Callee->getNumParams(); ++I) {
          const Expr *Arg = argumentFor(Link.Call, I);
          if (!Arg)
            break;
          if (std::optional<int64_t> V =
                  evalIn(Arg, *T, E->Binds.empty() ? nullptr : &E->Binds[L], 0))
            Next[L][Link.Callee->getParamDecl(I)] = *V;
        }
      }
      E->Binds = std::move(Next);
    }
  }
  if (!E->Active)
    return 0;
  const FunctionDecl *Fn = Chain.empty() ? F : Chain.back().Callee;
  bool Exact = E->Exact;
  return mayReachIn(S, TDA.forFunction(Fn), E->Active, E->Binds, W, Exact,
                    Cache ? Context : NoContext);
}

} // namespace warplint
