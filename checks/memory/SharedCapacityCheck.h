// memory-shared-capacity: a kernel's static __shared__ memory (its own and
// its callees') above the 48 KB per-block limit, or so large that few of its
// blocks fit on an SM (Maxwell tuning guide 1.4.3.1, Shared Memory
// Capacity).
#pragma once
#include "Analysis/SharedMemory.h"
#include "Core/Check.h"

namespace warplint::memory {

class SharedCapacityCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  StaticSharedMemory Shared;
};

} // namespace warplint::memory
