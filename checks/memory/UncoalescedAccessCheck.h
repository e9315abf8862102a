// memory-uncoalesced-access: a warp's global load or store touches more
// 32-byte sectors than its useful bytes need (slides: "Coalesce global memory
// accesses"; Pascal deep dive: "Access Patterns vs. Memory Throughput",
// "Structures of Non-Native Size").
#pragma once
#include "Core/Check.h"
#include "checks/memory/KernelTraffic.h"
#include "checks/memory/OptimisedView.h"

namespace warplint::memory {

class UncoalescedAccessCheck : public FunctionCheck {
public:
  UncoalescedAccessCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

  // A group of siblings that uses this share of the sectors it moves loses
  // no bandwidth: what it wastes is requests (a note).
  static constexpr unsigned FilledGroupPct = 80;

private:
  bool wantsInstantiations() const override { return true; }
  void checkFunction(const clang::FunctionDecl *F) override;
  void reportLaneWalks(const clang::FunctionDecl *F);
  // The accesses the optimised IR shows inlined into the kernels, linear in
  // the thread index, that the source analysis did not follow.
  void finishTranslationUnit() override;

  FollowedAccesses Followed{/*Shared=*/false};
  TrafficModel Model{context()};
  // A finding is a warning when the fix would save at least this share of
  // the kernel's global sectors (bench/gpu: the measured threshold).
  const int64_t MinSavingPct;
};

} // namespace warplint::memory
