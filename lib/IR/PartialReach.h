// The blocks of a device function that only part of the thread block may
// reach: those control-dependent, directly or through other such blocks, on a
// branch whose condition differs between threads.
//
// Control dependence comes from the post-dominator tree (Ferrante, Ottenstein
// and Warren, "The program dependence graph and its use in optimization",
// TOPLAS 1987): block Y is control-dependent on the edge B->S when Y
// post-dominates S but not B, i.e. Y lies on the post-dominator-tree path from
// S up to, and not including, ipdom(B). A divergent branch is one whose
// terminator UniformityInfo calls divergent. The closure matters: a uniform
// branch inside a partly reached block splits an already partial set of
// threads, so what depends on it is partly reached too (a uniform loop inside
// a thread-dependent if). A divergent loop exit makes the loop body depend on
// the exiting branch, which covers thread-dependent trip counts.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/UniformityAnalysis.h"

namespace warplint::ir {

class PartialReach {
public:
  PartialReach(llvm::Function &F, const llvm::PostDominatorTree &PDT,
               llvm::UniformityInfo &UI);

  // The divergent branch (a terminator) that splits the threads before BB,
  // or null when every thread of the block that enters F reaches BB.
  const llvm::Instruction *splittingBranch(const llvm::BasicBlock *BB) const {
    return Origin.lookup(BB);
  }

private:
  llvm::DenseMap<const llvm::BasicBlock *, const llvm::Instruction *> Origin;
};

} // namespace warplint::ir
