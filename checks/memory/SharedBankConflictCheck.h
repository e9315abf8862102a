// memory-shared-bank-conflict: a warp's shared-memory access maps several
// distinct addresses to one bank (slides: "Shared memory bank conflicts").
#pragma once
#include "Analysis/AccessSites.h"
#include "Core/Check.h"
#include "checks/memory/OptimisedView.h"

namespace warplint::memory {

class SharedBankConflictCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  bool wantsInstantiations() const override { return true; }
  void checkFunction(const clang::FunctionDecl *F) override;
  // A run-time multiple of a known stride: how many ways at least.
  unsigned runtimeStrideWays(const MemoryAccess &A, const WarpPattern &P,
                             const ArchInfo &Target);
  void reportRuntimeStride(const AccessRun &R, unsigned Ways,
                           const ArchInfo &Target);
  void noteCallChain(FindingBuilder &B, const AccessRun &R);
  // An access whose lane spacing grows with a loop-carried multiplied
  // local (offset *= 2): the worst verdict over the loop and the range.
  // Judged on the lanes Own runs on.
  void reportOverLoop(const AccessRun &Own, const LoopValues &LV,
                      const std::vector<WarpPattern> &AllLanes,
                      const ArchInfo &Target);
  // The accesses the optimised IR shows inlined into the kernels, linear in
  // the thread index, that the source analysis did not follow.
  void finishTranslationUnit() override;

  FollowedAccesses Followed{/*Shared=*/true};
};

} // namespace warplint::memory
