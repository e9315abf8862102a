#include "checks/warp/MaskDivergentCheck.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/bit.h"

using namespace clang;

namespace warplint::warp {

bool MaskDivergentCheck::fullMask(const CallExpr *Call, unsigned &TileSize) {
  SyncSite S = classifySync(Call);
  TileSize = arch().warp_size;
  if (S.Kind == SyncKind::TileCollective) {
    const auto *ME =
        dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts());
    unsigned N =
        ME ? tileSizeOf(ME->getBase()->IgnoreImpCasts()->getType()) : 0;
    if (N == 0 || N > arch().warp_size)
      return false;
    TileSize = N;
    return true;
  }
  if ((S.Kind != SyncKind::WarpCollective && S.Kind != SyncKind::WarpBarrier) ||
      S.MaskArg < 0)
    return false;
  if (unsigned(S.MaskArg) >= Call->getNumArgs())
    return S.Kind == SyncKind::WarpBarrier; // __syncwarp(): the full mask
  return isFullMask(Call->getArg(S.MaskArg), context().astContext(),
                    arch().warp_size);
}

const CallExpr *MaskDivergentCheck::collectiveIn(const FunctionDecl *F,
                                                 unsigned Depth) {
  if (Depth > MaxDeviceCallDepth)
    return nullptr;
  auto It = Memo.find(F);
  if (It != Memo.end())
    return It->second;
  Memo[F] = nullptr;
  const auto *Found = cast_or_null<CallExpr>(
      findStmt(F->getBody(), WalkOptions(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call)
          return false;
        unsigned Tile;
        if (fullMask(Call, Tile))
          return true;
        const FunctionDecl *H = userCallee(Call);
        return H && collectiveIn(H, Depth + 1);
      }));
  Memo[F] = Found;
  return Found;
}

void MaskDivergentCheck::checkFunction(const FunctionDecl *Fn) {
  // Judged from the kernels, where the lanes that run each call are known;
  // helpers through their call sites.
  if (!Fn->hasAttr<CUDAGlobalAttr>())
    return;
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  LaneEvaluator LE = context().engine().lanes(Fn);
  forEachStmt(Fn->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    unsigned Tile;
    const FunctionDecl *H = userCallee(Call);
    if (fullMask(Call, Tile) || (H && collectiveIn(H, 0)))
      judge(Call, Fn, FD, LE);
  });
}

namespace {
// The lanes of warp W that the block has.
uint64_t existingLanes(LaneEvaluator &LE, unsigned W) {
  uint64_t Lanes = 0;
  for (unsigned L = 0; L < LE.warpSize(); ++L)
    if (LE.thread(W, L))
      Lanes |= uint64_t(1) << L;
  return Lanes;
}
// What the call expects to reach it, as the messages say it.
std::string maskText(const SyncSite &S, unsigned Tile) {
  return S.Kind == SyncKind::TileCollective
             ? "the whole tile of " + std::to_string(Tile) + " lanes"
             : "the full mask";
}
} // namespace

void MaskDivergentCheck::judge(const CallExpr *Site, const FunctionDecl *Fn,
                               FunctionDependence &FD, LaneEvaluator &LE) {
  // The collective itself, through the helpers that lead to it.
  llvm::SmallVector<const CallExpr *, 4> Chain;
  std::vector<CallLink> Links;
  const CallExpr *Target = Site;
  unsigned Tile = 0;
  // The innermost branch inside a helper on the way whose condition may
  // differ between the lanes that enter it (it reads a parameter or the
  // thread): judged lane by lane, the parameters bound to the arguments.
  const IfStmt *HelperGuard = nullptr;
  const CallExpr *GuardedInner = nullptr;
  const FunctionDecl *Caller = Fn;
  while (!fullMask(Target, Tile)) {
    const FunctionDecl *H = userCallee(Target);
    const CallExpr *Inner = H ? collectiveIn(H, 0) : nullptr;
    if (!Inner || Chain.size() > MaxDeviceCallDepth)
      return;
    Chain.push_back(Target);
    Links.push_back({Target, Caller, H, {}});
    Caller = H;
    FunctionDependence &HD = context().threadDependence().forFunction(H);
    for (const auto &G : HD.guardSites(Inner)) {
      if (G.D == Dependence::Uniform)
        continue;
      if (G.Kind != FunctionDependence::GuardKind::Branch ||
          !isa<IfStmt>(G.Where))
        return; // a loop or an early return in the helper: not followed
      if (!HelperGuard || GuardedInner != Inner) {
        HelperGuard = cast<IfStmt>(G.Where);
        GuardedInner = Inner;
      }
    }
    Target = Inner;
  }
  if (Reported.count(Target))
    return;
  if (HelperGuard) {
    judgeHelperGuard(Site, Target, Chain, Links, HelperGuard, GuardedInner,
                     Tile, FD, LE);
    return;
  }
  // The innermost branch that splits a warp.
  const Stmt *Splitter = nullptr;
  for (const auto &G : FD.guardSites(Site))
    if (G.Kind == FunctionDependence::GuardKind::Branch &&
        isa<IfStmt>(G.Where)) {
      LaneSplit Split = LE.split(FunctionDependence::conditionOf(G.Where));
      if (Split.Known && Split.WarpsSplit > 0) {
        Splitter = G.Where;
        break;
      }
    }
  const Stmt *GoesOn = Splitter ? continuation(Site, Splitter, FD) : nullptr;
  for (unsigned W = 0; W < LE.warpCount(); ++W) {
    auto Active = LE.activeLanes(Site, FD, W);
    if (!Active) {
      // A condition on the way cannot be evaluated per lane.
      judgeUnknown(Site, Target, Chain, Tile, FD, LE);
      return;
    }
    uint64_t Lanes = existingLanes(LE, W);
    if (!*Active)
      continue;
    uint64_t Missing = missingLanes(Site, *Active, Lanes, Tile, W, FD, LE);
    if (!Missing)
      continue;
    if (!GoesOn)
      return; // the lanes that skip it can only exit
    // The condition or exit that leaves lanes out, where it is one place.
    const Stmt *Splits = nullptr;
    for (const auto &G : FD.guardSites(Site))
      if (G.Kind == FunctionDependence::GuardKind::Branch) {
        Splits = G.Where;
        break;
      }
    reportMissing(Target, Tile, W, *Active, Missing, LE.warpSize(), Splits,
                  GoesOn, Chain);
    return;
  }
}

uint64_t MaskDivergentCheck::missingLanes(const CallExpr *Site, uint64_t Active,
                                          uint64_t Lanes, unsigned Tile,
                                          unsigned W, FunctionDependence &FD,
                                          LaneEvaluator &LE) {
  // Each group of Tile lanes must be all in or all out.
  uint64_t Group = Tile >= 64 ? ~uint64_t(0) : (uint64_t(1) << Tile) - 1;
  uint64_t Missing = 0;
  for (unsigned B = 0; B < LE.warpSize(); B += Tile) {
    uint64_t In = Active & (Group << B) & Lanes;
    if (In && In != (Lanes & (Group << B)))
      Missing |= (Lanes & (Group << B)) & ~In;
  }
  // Lanes that returned from the kernel have exited: not waited for.
  findStmt(FD.function()->getBody(), WalkOptions(), [&](const Stmt *X) {
    const auto *R = dyn_cast<ReturnStmt>(X);
    if (R && context().sourceManager().isBeforeInTranslationUnit(
                 R->getBeginLoc(), Site->getBeginLoc()))
      if (auto Gone = LE.activeLanes(R, FD, W))
        Missing &= ~*Gone;
    return false;
  });
  return Missing;
}

void MaskDivergentCheck::reportMissing(const CallExpr *Target, unsigned Tile,
                                       unsigned W, uint64_t Active,
                                       uint64_t Missing, unsigned WarpSize,
                                       const Stmt *Splits, const Stmt *GoesOn,
                                       llvm::ArrayRef<const CallExpr *> Chain) {
  Reported.insert(Target);
  bool Its = arch().independent_thread_scheduling;
  SyncSite S = classifySync(Target);
  std::string Mask = maskText(S, Tile);
  FindingBuilder B =
      diag(Target->getBeginLoc(),
           "'{0}' expects {1}, but only {2} of warp {3} reach it ({4} do not): "
           "every lane named in the mask must execute the call, {5} (Volta "
           "tuning guide 1.4.1.2)",
           Its ? Severity::Error : Severity::Warning);
  B << S.Name << Mask << describeLanes(Active, WarpSize) << int64_t(W)
    << describeLanes(Missing, WarpSize)
    << (Its ? "otherwise it is undefined behaviour on " + arch().Name +
                  " (the warp can hang or read garbage)"
            : "otherwise the result is undefined (on " + arch().Name +
                  " the missing lanes' values are garbage)");
  // The witness: a lane that makes the call and one named in the mask
  // that does not.
  if (Active && Missing) {
    B.metric("witness_warp", W);
    B.metric("witness_lane_reaches", llvm::countr_zero(Active));
    B.metric("witness_lane_misses", llvm::countr_zero(Missing));
  }
  if (Splits) {
    const Expr *Cond = FunctionDependence::conditionOf(Splits);
    B.note(Cond ? Cond->getBeginLoc() : Splits->getBeginLoc(),
           "only some lanes pass this condition");
  }
  B.note(GoesOn->getBeginLoc(), "the lanes that skip the call go on here");
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    B.note((*It)->getBeginLoc(), "reached through this call");
  B.note(Target->getBeginLoc(),
         "take the mask before the branch (unsigned m = __ballot_sync("
         "0xffffffff, cond); then pass m), or let the whole warp make the "
         "call and use its result conditionally; __activemask() only says "
         "which lanes happen to be converged, it is not a synchronisation "
         "point");
}

namespace {
// A statement that does nothing the other lanes could wait for.
bool trivial(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(CS->body(), trivial);
  return false;
}
// Whether every path through S ends in a return (the lanes exit).
bool exits(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    for (const Stmt *X : CS->body()) {
      if (exits(X))
        return true;
      if (!trivial(X))
        return false;
    }
  return false;
}
// Whether Cond has one value in every lane of a warp because it is built
// from warp votes and constants: `tile32.any(i < n)`, `!__all_sync(m, p)`,
// `__ballot_sync(m, p) != 0`.
bool warpVote(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  if (Cond->isIntegerConstantExpr(Ctx))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    return UO->getOpcode() == UO_LNot && warpVote(UO->getSubExpr(), Ctx);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    return (BO->isComparisonOp() || BO->isLogicalOp() || BO->isBitwiseOp()) &&
           warpVote(BO->getLHS(), Ctx) && warpVote(BO->getRHS(), Ctx);
  const auto *Call = dyn_cast<CallExpr>(Cond);
  if (!Call)
    return false;
  SyncSite S = classifySync(Call);
  if (S.Kind != SyncKind::WarpCollective && S.Kind != SyncKind::TileCollective)
    return false;
  llvm::StringRef N(S.Name);
  return N.ends_with("any") || N.ends_with("all") || N.ends_with("ballot") ||
         N.contains("any_sync") || N.contains("all_sync") ||
         N.contains("ballot_sync");
}

} // namespace

void MaskDivergentCheck::judgeHelperGuard(
    const CallExpr *Site, const CallExpr *Target,
    llvm::ArrayRef<const CallExpr *> Chain, llvm::ArrayRef<CallLink> Links,
    const IfStmt *Guard, const CallExpr *Inner, unsigned Tile,
    FunctionDependence &FD, LaneEvaluator &LE) {
  // Where the lanes that skip go on: the guard's other side, what follows
  // it in its helper, then what follows each call on the way out (a
  // helper's return goes back to its caller; the kernel's, out).
  const FunctionDecl *Helper = Links.back().Callee;
  FunctionDependence &HD = context().threadDependence().forFunction(Helper);
  const Stmt *In = Inner;
  for (const Stmt *P = HD.parent(In); P && P != Guard; P = HD.parent(P))
    In = P;
  const Stmt *Other =
      In == Guard->getThen() ? Guard->getElse() : Guard->getThen();
  const Stmt *GoesOn =
      Other && !trivial(Other) && !exits(Other) ? Other : after(Guard, HD);
  for (size_t I = Links.size(); !GoesOn && I-- > 0;)
    GoesOn = after(
        Links[I].Call,
        I == 0 ? FD
               : context().threadDependence().forFunction(Links[I].Caller));
  if (!GoesOn)
    return; // the lanes that skip it can only exit
  ThreadDependenceAnalysis &TDA = context().threadDependence();
  for (unsigned W = 0; W < LE.warpCount(); ++W) {
    uint64_t Lanes = existingLanes(LE, W);
    // A superset of the lanes that reach the collective (a condition that
    // cannot be evaluated keeps its lanes): the lanes it leaves out surely
    // do not.
    uint64_t Active = LE.mayReach(Target, Links, TDA, W) & Lanes;
    if (!Active)
      continue;
    uint64_t Missing = missingLanes(Site, Active, Lanes, Tile, W, FD, LE);
    if (!Missing)
      continue;
    reportMissing(Target, Tile, W, Active, Missing, LE.warpSize(), Guard,
                  GoesOn, Chain);
    return;
  }
}

const Stmt *MaskDivergentCheck::continuation(const Stmt *Site,
                                             const Stmt *Guard,
                                             FunctionDependence &FD) {
  // The child of Guard that holds Site.
  const Stmt *C = Site;
  for (const Stmt *P = FD.parent(C); P && P != Guard; P = FD.parent(P))
    C = P;
  if (const auto *If = dyn_cast<IfStmt>(Guard)) {
    // The skipping lanes run the other side, then what follows.
    const Stmt *Other = C == If->getThen() ? If->getElse() : If->getThen();
    if (exits(Other))
      return nullptr;
    if (!trivial(Other))
      return Other;
  }
  return after(Guard, FD);
}

const Stmt *MaskDivergentCheck::after(const Stmt *From,
                                      FunctionDependence &FD) {
  // Outwards from From: past a branch, its skipping lanes run the other
  // side, then what follows it.
  bool Skipping = true;
  const Stmt *C = From;
  for (const Stmt *P = FD.parent(C); P; C = P, P = FD.parent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (C != If->getThen() && C != If->getElse())
        continue;
      const Stmt *Other = C == If->getThen() ? If->getElse() : If->getThen();
      if (exits(Other)) {
        Skipping = false; // those lanes have exited
        continue;
      }
      if (!trivial(Other))
        return Other;
      Skipping = true;
      continue;
    }
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P)) {
      if (FunctionDependence::conditionOf(P) == C)
        continue;
      return P; // the next iteration
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      if (!Skipping)
        continue;
      bool After = false;
      for (const Stmt *X : CS->body()) {
        if (X == C) {
          After = true;
          continue;
        }
        if (!After)
          continue;
        if (exits(X))
          return nullptr;
        if (!trivial(X))
          return X;
      }
    }
  }
  // The end of the kernel: the lanes exit. (Helpers are judged at their
  // call sites in the kernel.)
  return nullptr;
}

void MaskDivergentCheck::judgeUnknown(const CallExpr *Site,
                                      const CallExpr *Target,
                                      llvm::ArrayRef<const CallExpr *> Chain,
                                      unsigned Tile, FunctionDependence &FD,
                                      LaneEvaluator &LE) {
  // The innermost branch or loop whose condition depends on the thread and
  // that LaneEval cannot show keeps the warps (or tiles) whole.
  const Stmt *Where = nullptr;
  bool IsLoop = false;
  LaneSplit Known;
  std::string AtZ; // the run-time z at which the lanes split
  for (const auto &G : FD.guardSites(Site)) {
    if (G.Kind == FunctionDependence::GuardKind::EarlyExit ||
        G.D != Dependence::ThreadDependent)
      continue;
    const Expr *Cond = FunctionDependence::conditionOf(G.Where);
    if (!Cond || warpVote(Cond, context().astContext()))
      continue; // a vote: the same in every lane of the warp
    if (G.Kind == FunctionDependence::GuardKind::Loop && G.Exit)
      continue; // a break or continue that varies: not followed
    // A loop splits a warp when its lanes run it a different number of
    // times, whatever they do in the first iteration.
    const auto *For = dyn_cast<ForStmt>(G.Where);
    auto SplitIn = [&](LaneEvaluator &E) {
      return G.Kind == FunctionDependence::GuardKind::Loop && For
                 ? E.tripSplit(For)
                 : E.split(Cond);
    };
    LaneSplit Split = SplitIn(LE);
    // A z the launches choose at run time from constants: judged at each.
    const BlockShape &Shape = LE.shape();
    if (!Split.Known && Shape.RuntimeZ && !Shape.ZChoices.empty()) {
      bool Whole = true;
      for (unsigned Z : Shape.ZChoices) {
        BlockShape At = Shape;
        At.Z = Z;
        At.RuntimeZ = false;
        At.ZChoices.clear();
        LaneEvaluator E = context().engine().lanes(LE.function(), At);
        LaneSplit S = SplitIn(E);
        if (!S.Known || S.WarpsSplit) {
          Whole = false;
          if (S.Known) {
            Split = S;
            AtZ = ", with blockDim.z = " + std::to_string(Z) + ", one of " +
                  std::to_string(Shape.ZChoices.size()) +
                  " values the launches choose";
          }
          break;
        }
      }
      if (Whole)
        continue;
    }
    if (Split.Known && Split.WarpsSplit == 0)
      continue; // whole warps pass or fail it
    if (Split.Known && Tile < LE.warpSize()) {
      // Lanes of one tile on both sides?
      bool TileSplit = false;
      uint64_t Group = (uint64_t(1) << Tile) - 1;
      for (unsigned B = 0; B < LE.warpSize(); B += Tile) {
        uint64_t In = Split.TrueLanes & (Group << B);
        if (In && In != (Split.Lanes & (Group << B)))
          TileSplit = true;
      }
      if (!TileSplit)
        continue;
    }
    Where = G.Where;
    IsLoop = G.Kind == FunctionDependence::GuardKind::Loop;
    Known = Split;
    break;
  }
  if (!Where)
    return;
  const Stmt *GoesOn = continuation(Site, Where, FD);
  if (!GoesOn)
    return; // the lanes that skip it can only exit
  Reported.insert(Target);
  bool Its = arch().independent_thread_scheduling;
  SyncSite S = classifySync(Target);
  std::string Mask = maskText(S, Tile);
  const Expr *Cond = FunctionDependence::conditionOf(Where);
  FindingBuilder B =
      diag(Target->getBeginLoc(),
           "'{0}' expects {1}, but {2} '{3}' {4}, and {5} go on to other code: "
           "every non-exited lane named in the mask must execute the call, {6} "
           "(Volta tuning guide 1.4.1.2)",
           Its ? Severity::Error : Severity::Warning);
  B << S.Name << Mask
    << (IsLoop ? "the lanes of a warp can leave the loop on"
               : "only the lanes where")
    << context().sourceText(Cond)
    << (IsLoop
            ? "after different numbers of iterations" +
                  (Known.Known
                       ? " (" + describeLanes(Known.TrueLanes, LE.warpSize()) +
                             " of warp " + std::to_string(Known.FirstWarp) +
                             " run it the most" + AtZ + ")"
                       : std::string())
        : Known.Known
            ? "holds reach it (" +
                  describeLanes(Known.TrueLanes, LE.warpSize()) + " of warp " +
                  std::to_string(Known.FirstWarp) + ")"
            : std::string("holds reach it (the condition depends on each "
                          "thread's data or a run-time bound)"))
    << (IsLoop ? "those that leave first" : "the others")
    << (Its ? "otherwise it is undefined behaviour on " + arch().Name +
                  " (the warp can hang or read garbage)"
            : "otherwise the result is undefined (on " + arch().Name +
                  " the missing lanes' values are garbage)");
  B.note(Cond->getBeginLoc(), IsLoop ? "this loop's trip count varies "
                                       "between lanes"
                                     : "this condition can split the warp");
  B.note(GoesOn->getBeginLoc(), "the lanes that skip the call go on here");
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    B.note((*It)->getBeginLoc(), "reached through this call");
  B.note(Target->getBeginLoc(),
         "take the mask before the branch (unsigned m = __ballot_sync("
         "0xffffffff, cond); then pass m), or let the whole warp make the "
         "call and use its result conditionally");
}

WARPLINT_CHECK_FACTORY(MaskDivergentCheck)

} // namespace warplint::warp
