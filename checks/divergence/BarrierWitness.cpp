// divergence-barrier's witnesses (BarrierWitness.h).
#include "checks/divergence/BarrierWitness.h"
#include "Analysis/LaneEval.h"
#include "Analysis/Loops.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include <algorithm>

using namespace clang;

namespace warplint::divergence {

namespace {

using GuardKind = FunctionDependence::GuardKind;

// The branch whose condition decides whether a thread runs Exit (a break,
// continue or return): the innermost `if` around it, below Stop. Also
// whether the exit lies in its then-arm.
std::pair<const IfStmt *, bool> branchOfExit(const Stmt *Exit, const Stmt *Stop,
                                             FunctionDependence &FD) {
  const Stmt *Child = Exit;
  for (const Stmt *P = FD.parent(Exit); P && P != Stop;
       Child = P, P = FD.parent(P))
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (Child == If->getThen() || Child == If->getElse())
        return {If, Child == If->getThen()};
  return {nullptr, false};
}

// The value of Where's condition with which a thread reaches Site (inside
// Where): true for an if's then-arm, a loop's body or the right of an &&;
// false for an else-arm or the right of an ||; nothing otherwise.
std::optional<bool> reachingValue(const Stmt *Site, const Stmt *Where,
                                  FunctionDependence &FD) {
  const Stmt *Child = Site;
  for (const Stmt *P = FD.parent(Site); P; Child = P, P = FD.parent(P)) {
    if (P != Where)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        return true;
      if (Child == If->getElse())
        return false;
    }
    if (isa<ForStmt, WhileStmt, DoStmt>(P))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isLogicalOp())
      return BO->getOpcode() == BO_LAnd;
    return std::nullopt;
  }
  return std::nullopt;
}

class Finder {
public:
  Finder(FunctionDependence &FD, LaneEngine &Engine, const QuoteFn &Quote)
      : FD(FD), Engine(Engine), Quote(Quote),
        Lanes(Engine.lanes(FD.function())), Shape(Engine.shape(FD.function())) {
  }

  // Two threads that evaluate Cond differently: the first with Cond ==
  // Reach, the second without. Reach unknown: any two that differ.
  std::optional<BarrierWitness>
  byLanes(const Expr *Cond, std::optional<bool> Reach, std::string Round) {
    // Inside counted loops, their first round: each counter at its start
    // when that is the same in every thread (`for (t = 0; ...)`).
    Lanes.clearFixed();
    std::string Fixed;
    for (const Stmt *P = FD.parent(Cond); P; P = FD.parent(P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      auto C = For ? forCounter(For) : std::nullopt;
      if (!C || FD.dependence(C->Start) != Dependence::Uniform)
        continue;
      if (auto V = Lanes.eval(C->Start, ThreadId{0, 0, 0})) {
        Lanes.fix(C->Var, *V);
        Fixed += std::string(Fixed.empty() ? "" : ", ") +
                 C->Var->getName().str() + " = " + std::to_string(*V);
      }
    }
    if (!Fixed.empty() && Round.empty())
      Round = " in the first round (" + Fixed + ")";
    const unsigned WS = Engine.warpSize();
    std::optional<int64_t> A, B; // the first thread true, the first false
    unsigned Evaluated = 0;
    for (unsigned W = 0; W < Lanes.warpCount() && !(A && B); ++W)
      for (unsigned L = 0; L < WS && !(A && B); ++L) {
        std::optional<ThreadId> T = Lanes.thread(W, L);
        if (!T || ++Evaluated > MaxThreads)
          continue;
        std::optional<int64_t> V = Lanes.eval(Cond, *T);
        if (!V)
          continue;
        int64_t Id = int64_t(W) * WS + L;
        (*V ? A : B) = (*V ? A : B).value_or(Id);
      }
    if (!A || !B)
      return std::nullopt;
    BarrierWitness Out;
    bool ReachTrue = Reach.value_or(true);
    Out.Reaches = ReachTrue ? *A : *B;
    Out.Misses = ReachTrue ? *B : *A;
    Out.BlockThreads = Shape.pinned() ? Shape.X * Shape.Y * Shape.Z : 0;
    std::string Cut =
        "'" + Quote(Cond) + "' is " + (ReachTrue ? "true" : "false") + " in " +
        thread(Out.Reaches) + " and " + (ReachTrue ? "false" : "true") +
        " in " + thread(Out.Misses);
    Out.Text = (Reach ? thread(Out.Reaches) + " reaches it and " +
                            thread(Out.Misses) + " does not" + Round
                      : "one of " + thread(Out.Reaches) + " and " +
                            thread(Out.Misses) + " reaches it" + Round) +
               " (" + Cut + "), " + block(std::max(*A, *B));
    return Out;
  }

  // A tail guard (`idx < n`): the threads past the bound leave.
  // The lanes' trip counts of For, with no counter fixed.
  LaneSplit tripSplit(const ForStmt *For) {
    Lanes.clearFixed();
    return Lanes.tripSplit(For);
  }

  std::optional<BarrierWitness> byTail(const Expr *Cond, bool Reach,
                                       llvm::StringRef What) {
    if (!FD.tailGuard(Cond, Reach))
      return std::nullopt;
    BarrierWitness Out;
    Out.Reaches = 0;
    Out.Misses = 1;
    Out.Text = "thread 0 " + What.str() +
               " and thread 1 does not where the "
               "bound of '" +
               Quote(Cond) +
               "' falls between them (the block that holds the end of the "
               "data, when its size is not a multiple of the block's)";
    return Out;
  }

  // A condition that reads memory at a per-thread address, or a per-thread
  // result (an atomic's, a shuffle's).
  std::optional<BarrierWitness> byData(const Expr *Cond) {
    const Expr *Source = dataSource(Cond, 0);
    if (!Source)
      return std::nullopt;
    BarrierWitness Out;
    Out.Reaches = 0;
    Out.Misses = 1;
    const auto *Call = dyn_cast<CallExpr>(Source->IgnoreParenImpCasts());
    if (Call && isAtomic(Call)) {
      Out.Text = "each thread gets its own value from '" + Quote(Source) +
                 "', so threads 0 and 1 can take '" + Quote(Cond) +
                 "' differently";
      return Out;
    }
    std::string Elements;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Source)) {
      auto I0 = Lanes.eval(AS->getIdx(), ThreadId{0, 0, 0});
      auto I1 = Lanes.eval(AS->getIdx(), ThreadId{1, 0, 0});
      if (I0 && I1 && *I0 == *I1)
        return std::nullopt; // the same element: not this source
      if (I0 && I1)
        Elements = " (elements " + std::to_string(*I0) + " and " +
                   std::to_string(*I1) + ")";
    }
    Out.Text = "threads 0 and 1 read '" + Quote(Source) +
               "' at different addresses" + Elements +
               ": one reaches it and the other does not for inputs where "
               "the two values make '" +
               Quote(Cond) + "' differ";
    return Out;
  }

  // A loop condition on a local that some threads change and others do
  // not: the branch around that definition, evaluated per thread.
  std::optional<BarrierWitness> byCounterWrite(const Expr *Cond) {
    llvm::SmallVector<const Expr *, 8> Refs = {Cond};
    for (size_t I = 0; I < Refs.size() && I < 64; ++I) {
      for (const Stmt *Child : Refs[I]->children())
        if (const auto *CE = dyn_cast_or_null<Expr>(Child))
          Refs.push_back(CE);
      const auto *DRE = dyn_cast<DeclRefExpr>(Refs[I]->IgnoreParenImpCasts());
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!V || !V->isLocalVarDecl())
        continue;
      for (const Expr *Value : FD.definitionValues(V)) {
        auto [If, InThen] = branchOfExit(Value, nullptr, FD);
        if (!If || FD.dependence(If->getCond()) != Dependence::ThreadDependent)
          continue;
        if (auto W = byLanes(If->getCond(), InThen, "")) {
          W->Text = "'" + Quote(Value) +
                    "' runs in one thread and not the "
                    "other, so they count '" +
                    V->getName().str() +
                    "' differently and leave the loop in different rounds: " +
                    W->Text;
          return W;
        }
      }
    }
    return std::nullopt;
  }

private:
  static constexpr unsigned MaxThreads = 1024;

  static bool isAtomic(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && Callee->getDeclName().isIdentifier() &&
           Callee->getName().starts_with("atomic");
  }

  // The first read in E (through locals, a few definitions deep) whose
  // value differs per thread because its address does, or an atomic.
  const Expr *dataSource(const Expr *E, unsigned Depth) {
    if (!E || Depth > 3)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (FD.dependence(E) != Dependence::ThreadDependent)
      return nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (FD.dependence(AS->getIdx()) == Dependence::ThreadDependent &&
          !AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return E;
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      return E;
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && isAtomic(Call))
      return E;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
          V && V->isLocalVarDecl())
        for (const Expr *Value : FD.definitionValues(V))
          if (const Expr *S = dataSource(Value, Depth + 1))
            return S;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *S = dataSource(CE, Depth))
          return S;
    return nullptr;
  }

  std::string thread(int64_t Id) const {
    if (Shape.pinned() && (Shape.Y > 1 || Shape.Z > 1)) {
      int64_t X = Id % Shape.X, Y = (Id / Shape.X) % Shape.Y,
              Z = Id / (int64_t(Shape.X) * Shape.Y);
      return "thread (" + std::to_string(X) + ", " + std::to_string(Y) + ", " +
             std::to_string(Z) + ")";
    }
    return "thread " + std::to_string(Id);
  }

  std::string block(int64_t Highest) const {
    if (Shape.pinned())
      return "in the block of " + std::to_string(Shape.X) +
             (Shape.Y > 1 || Shape.Z > 1 ? "x" + std::to_string(Shape.Y) + "x" +
                                               std::to_string(Shape.Z)
                                         : std::string()) +
             " threads the file launches";
    return "in any 1-D block of " + std::to_string(Highest + 1) +
           " threads or more (the launch is not in this file)";
  }

  FunctionDependence &FD;
  LaneEngine &Engine;
  const QuoteFn &Quote;
  LaneEvaluator Lanes;
  BlockShape Shape;
};

} // namespace

std::optional<BarrierWitness>
findBarrierWitness(const Stmt *Site, const FunctionDependence::GuardSite &G,
                   FunctionDependence &FD, LaneEngine &Engine,
                   const QuoteFn &Quote) {
  Finder Find(FD, Engine, Quote);
  const Expr *Cond = nullptr;
  std::optional<bool> Reach;
  std::string Round;
  if (G.Kind == GuardKind::Branch) {
    Cond = FunctionDependence::conditionOf(G.Where);
    Reach = reachingValue(Site, G.Where, FD);
  } else if (G.Kind == GuardKind::Loop && !G.Exit) {
    Cond = FunctionDependence::conditionOf(G.Where);
    // A counted loop: lanes that run it a different number of times.
    if (const auto *For = dyn_cast<ForStmt>(G.Where)) {
      LaneSplit S = Find.tripSplit(For);
      if (S.Known && S.WarpsSplit > 0) {
        uint64_t More = S.TrueLanes, Fewer = S.Lanes & ~S.TrueLanes;
        if (More && Fewer) {
          BarrierWitness Out;
          unsigned WS = Engine.warpSize();
          Out.Reaches = int64_t(S.FirstWarp) * WS + llvm::countr_zero(More);
          Out.Misses = int64_t(S.FirstWarp) * WS + llvm::countr_zero(Fewer);
          Out.Text = "thread " + std::to_string(Out.Reaches) +
                     " runs the loop more times than thread " +
                     std::to_string(Out.Misses) +
                     " and meets the barrier in a round the other never "
                     "runs";
          return Out;
        }
      }
    }
    if (Cond)
      if (auto W = Find.byTail(Cond, true, "runs a last round of the loop"))
        return W;
    if (Cond)
      if (auto W = Find.byCounterWrite(Cond))
        return W;
    Reach = true;
    Round = " in the loop's first round";
  } else if (G.Exit) {
    // Each branch between the exit and the loop or function it leaves, the
    // innermost first: the one that splits the threads names the witness.
    const Stmt *Child = G.Exit;
    for (const Stmt *P = FD.parent(G.Exit); P && P != G.Where;
         Child = P, P = FD.parent(P)) {
      const auto *If = dyn_cast<IfStmt>(P);
      if (!If || (Child != If->getThen() && Child != If->getElse()) ||
          FD.dependence(If->getCond()) == Dependence::Uniform)
        continue;
      // The threads that take the exit miss the barrier.
      bool ReachOn = Child != If->getThen();
      std::string R = G.Kind == GuardKind::Loop
                          ? " in the round where it leaves or skips"
                          : "";
      if (auto W = Find.byLanes(If->getCond(), ReachOn, R))
        return W;
      if (auto W = Find.byTail(If->getCond(), ReachOn, "reaches it"))
        return W;
      if (auto W = Find.byData(If->getCond()))
        return W;
    }
    return std::nullopt;
  }
  if (!Cond)
    return std::nullopt;
  if (auto W = Find.byLanes(Cond, Reach, Round))
    return W;
  if (Reach && G.Kind != GuardKind::Loop)
    if (auto W = Find.byTail(Cond, *Reach, "reaches it"))
      return W;
  return Find.byData(Cond);
}

} // namespace warplint::divergence
