// memory-uncoalesced-access: a warp's global load or store touches more
// 32-byte sectors than its useful bytes need (slides: "Coalesce global memory
// accesses"; Pascal deep dive: "Access Patterns vs. Memory Throughput",
// "Structures of Non-Native Size").
#pragma once
#include "Core/Check.h"
#include "checks/memory/OptimisedView.h"

namespace warplint::memory {

class UncoalescedAccessCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  bool wantsInstantiations() const override { return true; }
  void checkFunction(const clang::FunctionDecl *F) override;
  void reportLaneWalks(const clang::FunctionDecl *F);
  // The accesses the optimised IR shows inlined into the kernels, linear in
  // the thread index, that the source analysis did not follow.
  void finishTranslationUnit() override;

  FollowedAccesses Followed{/*Shared=*/false};
};

} // namespace warplint::memory
