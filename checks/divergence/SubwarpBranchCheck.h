// divergence-subwarp-branch: a branch whose condition splits the lanes of a
// warp (granularity below warpSize), so the warp runs both paths one after
// the other (Optimizing for CUDA slides, "control flow"; Pascal deep dive,
// "Control Flow": threadIdx.x > 2 vs threadIdx.x / warpSize > 2).
#pragma once
#include "Analysis/LaneEval.h"
#include "Core/Check.h"
#include "IR/OptimisedAccesses.h"

namespace warplint::divergence {

class SubwarpBranchCheck : public FunctionCheck {
public:
  SubwarpBranchCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

private:
  void checkFunction(const clang::FunctionDecl *Fn) override;
  void judge(const clang::Stmt *Branch, const clang::Expr *Cond,
             FunctionDependence &FD, LaneEvaluator &LE);
  void judgeLoop(const clang::Stmt *Loop, const clang::Expr *Cond,
                 FunctionDependence &FD, LaneEvaluator &LE);
  // Whether the lanes Cond lets through change between iterations of a
  // loop around Branch in its function. (A helper's condition on its
  // parameters is not evaluated per lane: the lanes are unknown there.)
  bool activeSetChanges(const clang::Stmt *Branch, const clang::Expr *Cond,
                        FunctionDependence &FD);
  // What -O3 left of the branch (the IR layer's optimised view): Unknown
  // without the IR layer, for a loop, or in a macro.
  ir::BranchFate optimised(const clang::Stmt *Branch, const clang::Expr *Cond);

  // Also report branches that let exactly one lane of a warp through
  // (if (lane == 0) out[warp] = sum;): off by default, that is how a warp
  // publishes its result and costs next to nothing.
  bool ReportSingleLane;
};

} // namespace warplint::divergence
