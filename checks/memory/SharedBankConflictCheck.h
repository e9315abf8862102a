// memory-shared-bank-conflict: a warp's shared-memory access maps several
// distinct addresses to one bank (slides: "Shared memory bank conflicts").
#pragma once
#include "Analysis/AccessSites.h"
#include "Core/Check.h"
#include "checks/memory/KernelTraffic.h"
#include "checks/memory/OptimisedView.h"

namespace warplint::memory {

class SharedBankConflictCheck : public FunctionCheck {
public:
  SharedBankConflictCheck(llvm::StringRef Name, CheckContext &Ctx);

private:
  void storeOptions(CheckOptionMap &Opts) const override;
  // What removing a Ways-way conflict of Lanes lanes moving Size bytes each
  // at A (run in Chain) saves of its kernel's memory work: the severity,
  // the message's tail, the metrics.
  struct Saving {
    Severity Level;
    std::string Text;
    CostShare Share;
  };
  // Whether ptxas lays Root out aligned to Bytes (see checkFunction).
  bool alignedFor(const clang::ValueDecl *Root, const clang::FunctionDecl *F,
                  unsigned Bytes);
  Saving saving(const MemoryAccess &A, const clang::FunctionDecl *F,
                llvm::ArrayRef<CallLink> Chain, unsigned Ways, unsigned Lanes,
                unsigned Size, bool InTally);
  bool wantsInstantiations() const override { return true; }
  void checkFunction(const clang::FunctionDecl *F) override;
  // A run-time multiple of a known stride: how many ways at least.
  unsigned runtimeStrideWays(const MemoryAccess &A, const WarpPattern &P,
                             const ArchInfo &Target);
  void reportRuntimeStride(const AccessRun &R, const clang::FunctionDecl *F,
                           unsigned Ways, const ArchInfo &Target);
  void noteCallChain(FindingBuilder &B, const AccessRun &R);
  // An access whose lane spacing grows with a loop-carried multiplied
  // local (offset *= 2): the worst verdict over the loop and the range.
  // Judged on the lanes Own runs on.
  void reportOverLoop(const AccessRun &Own, const clang::FunctionDecl *F,
                      const LoopValues &LV,
                      const std::vector<WarpPattern> &AllLanes,
                      const ArchInfo &Target);
  // The accesses the optimised IR shows inlined into the kernels, linear in
  // the thread index, that the source analysis did not follow.
  void finishTranslationUnit() override;

  FollowedAccesses Followed{/*Shared=*/true};
  TrafficModel Model{context()};
  // The least share of the kernel's memory work, in percent, the extra
  // passes must take for a warning; below it, a note.
  const int64_t MinSavingPct;
};

} // namespace warplint::memory
