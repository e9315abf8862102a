#include "checks/launch/BlockSizeCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/Launches.h"
#include "Arch/Occupancy.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint::launch {

void BlockSizeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(launchMatcher(), this);
}

void BlockSizeCheck::check(const MatchFinder::MatchResult &R) {
  LaunchSite L = launchSite(R.Nodes.getNodeAs<CallExpr>("launch"));
  if (L.Block)
    judge(L.Grid, L.Block, L.Kernel);
}

void BlockSizeCheck::judge(const Expr *Grid, const Expr *Block,
                           const FunctionDecl *Kernel) {
  std::optional<BlockShape> S = context().affine().literalShapeOf(Block);
  if (!S)
    return; // a size known only at run time: nothing to judge
  const ArchInfo &A = arch();
  uint64_t Threads = uint64_t(S->X) * S->Y * S->Z;
  std::string Shape = std::to_string(Threads) + " threads";
  if (S->Y != 1 || S->Z != 1)
    Shape += " (" + std::to_string(S->X) + "x" + std::to_string(S->Y) +
             (S->Z != 1 ? "x" + std::to_string(S->Z) : "") + ")";
  std::string Name = Kernel ? "'" + Kernel->getNameAsString() + "'"
                            : std::string("the kernel");
  SourceLocation Loc = Block->getBeginLoc();
  if (Threads > A.max_threads_per_block) {
    diag(
        Loc,
        "{0} is launched with blocks of {1}, more than the {2} threads a block "
        "may have on {3}: the launch fails (cudaErrorInvalidConfiguration)",
        Severity::Error)
        << Name << Shape << A.max_threads_per_block << A.Name;
    return;
  }
  // A serial kernel (one thread per block) or a launch of one block: its
  // shape is the algorithm's choice, and there is no SM to fill.
  std::optional<BlockShape> G = context().affine().literalShapeOf(Grid);
  if (Threads == 1 || (G && G->X * G->Y * G->Z == 1))
    return;
  unsigned Warp = A.warp_size;
  if (Threads % Warp != 0) {
    uint64_t Warps = (Threads + Warp - 1) / Warp;
    uint64_t Idle = Warps * Warp - Threads;
    diag(
        Loc,
        "{0} is launched with blocks of {1}, not a multiple of the warp size "
        "({2}): the last warp of every block runs {3} of its {2} lanes, so {4} "
        "of the {5} lanes the block occupies ({6}%) idle on {7}")
        << Name << Shape << Warp << int64_t(Threads % Warp) << int64_t(Idle)
        << int64_t(Warps * Warp)
        << unsigned(100.0 * Idle / double(Warps * Warp) + 0.5) << A.Name;
    return;
  }
  // With nothing else limiting, is the block limit reached before the
  // warp limit?
  LaunchResources R;
  R.ThreadsPerBlock = unsigned(Threads);
  Occupancy O = computeOccupancy(A, R);
  if (O.BlocksPerSM > 0 && O.Limiter == OccupancyLimiter::Blocks &&
      O.ActiveWarps < O.MaxWarps) {
    unsigned Needed =
        (O.MaxWarps + A.max_blocks_per_sm - 1) / A.max_blocks_per_sm * Warp;
    diag(Loc,
         "{0} is launched with blocks of {1}, too small to fill an SM on {2}: "
         "it holds at most {3} blocks, so at most {4} of its {5} warps ({6}% "
         "occupancy) are resident; blocks of {7} threads or more can reach "
         "full occupancy")
        << Name << Shape << A.Name << A.max_blocks_per_sm << O.ActiveWarps
        << O.MaxWarps << unsigned(100.0 * O.fraction() + 0.5) << Needed;
  }
}

WARPLINT_CHECK_FACTORY(BlockSizeCheck)

} // namespace warplint::launch
