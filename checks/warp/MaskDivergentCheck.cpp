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
  LaneEvaluator LE(Fn, context().affine().blockShape(Fn), arch().warp_size);
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

const Stmt *MaskDivergentCheck::earlierReturn(const Stmt *Site,
                                              const FunctionDecl *Fn,
                                              FunctionDependence &FD,
                                              LaneEvaluator &LE, unsigned W) {
  const SourceManager &SM = context().sourceManager();
  return findStmt(Fn->getBody(), WalkOptions(), [&](const Stmt *S) {
    const auto *R = dyn_cast<ReturnStmt>(S);
    if (!R ||
        !SM.isBeforeInTranslationUnit(R->getBeginLoc(), Site->getBeginLoc()))
      return false;
    auto Lanes = LE.activeLanes(R, FD, W);
    return Lanes && *Lanes;
  });
}

void MaskDivergentCheck::judge(const CallExpr *Site, const FunctionDecl *Fn,
                               FunctionDependence &FD, LaneEvaluator &LE) {
  // The collective itself, through the helpers that lead to it.
  llvm::SmallVector<const CallExpr *, 4> Chain;
  const CallExpr *Target = Site;
  unsigned Tile = 0;
  while (!fullMask(Target, Tile)) {
    const FunctionDecl *H = userCallee(Target);
    const CallExpr *Inner = H ? collectiveIn(H, 0) : nullptr;
    if (!Inner || Chain.size() > MaxDeviceCallDepth)
      return;
    Chain.push_back(Target);
    // Inside a helper, the collective must be reached by every lane that
    // enters it: guards there depend on its parameters.
    FunctionDependence &HD = context().threadDependence().forFunction(H);
    for (const auto &G : HD.guardSites(Inner))
      if (G.D != Dependence::Uniform)
        return;
    Target = Inner;
  }
  if (Reported.count(Target))
    return;
  for (unsigned W = 0; W < LE.warpCount(); ++W) {
    auto Active = LE.activeLanes(Site, FD, W);
    if (!Active)
      return; // a condition on the way cannot be evaluated: stay silent
    uint64_t Lanes = 0;
    for (unsigned L = 0; L < LE.warpSize(); ++L)
      if (LE.thread(W, L))
        Lanes |= uint64_t(1) << L;
    if (!*Active)
      continue;
    // Each group of Tile lanes must be all in or all out.
    uint64_t Group = Tile >= 64 ? ~uint64_t(0) : (uint64_t(1) << Tile) - 1;
    uint64_t Missing = 0;
    for (unsigned B = 0; B < LE.warpSize(); B += Tile) {
      uint64_t In = *Active & (Group << B) & Lanes;
      if (In && In != (Lanes & (Group << B)))
        Missing |= (Lanes & (Group << B)) & ~In;
    }
    if (!Missing)
      continue;
    Reported.insert(Target);
    bool Its = arch().independent_thread_scheduling;
    SyncSite S = classifySync(Target);
    std::string Mask =
        S.Kind == SyncKind::TileCollective
            ? "the whole tile of " + std::to_string(Tile) + " lanes"
            : "the full mask";
    FindingBuilder B = diag(
        Target->getBeginLoc(),
        "'{0}' expects {1}, but only {2} of warp {3} reach it ({4} do not): "
        "every lane named in the mask must execute the call, {5} (Volta "
        "tuning guide 1.4.1.2)",
        Its ? Severity::Error : Severity::Warning);
    B << S.Name << Mask << describeLanes(*Active, LE.warpSize()) << int64_t(W)
      << describeLanes(Missing, LE.warpSize())
      << (Its ? "otherwise it is undefined behaviour on " + arch().Name +
                    " (the warp can hang or read garbage)"
              : "otherwise the result is undefined (on " + arch().Name +
                    " the missing lanes' values are garbage)");
    // The condition or exit that leaves lanes out, where it is one place.
    bool Noted = false;
    for (const auto &G : FD.guardSites(Site))
      if (G.Kind == FunctionDependence::GuardKind::Branch) {
        const Expr *Cond = FunctionDependence::conditionOf(G.Where);
        B.note(Cond ? Cond->getBeginLoc() : G.Where->getBeginLoc(),
               "only some lanes pass this condition");
        Noted = true;
        break;
      }
    if (!Noted)
      if (const Stmt *Ret = earlierReturn(Site, Fn, FD, LE, W))
        B.note(Ret->getBeginLoc(), "the other lanes have returned here");
    for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
      B.note((*It)->getBeginLoc(), "reached through this call");
    B.note(Target->getBeginLoc(),
           "take the mask before the branch (unsigned m = __ballot_sync("
           "0xffffffff, cond); then pass m), or let the whole warp make the "
           "call and use its result conditionally; __activemask() only says "
           "which lanes happen to be converged, it is not a synchronisation "
           "point");
    return;
  }
}

WARPLINT_CHECK_FACTORY(MaskDivergentCheck)

} // namespace warplint::warp
