#include "checks/memory/SharedCapacityCheck.h"
#include "Arch/Occupancy.h"
#include "clang/AST/Attr.h"

using namespace clang;

namespace warplint::memory {

void SharedCapacityCheck::checkFunction(const FunctionDecl *F) {
  if (!F->hasAttr<CUDAGlobalAttr>())
    return;
  uint64_t Bytes = Shared.bytes(F);
  if (Bytes == 0)
    return;
  const ArchInfo &A = arch();
  const VarDecl *Largest = Shared.largest(F);
  if (Bytes > A.max_shared_memory_per_block) {
    FindingBuilder B = diag(
        F->getLocation(),
        "kernel '{0}' holds {1} bytes of static __shared__ memory per block "
        "(its own and its callees'), more than the {2} bytes static shared "
        "memory may take on {3}: it does not build for that target "
        "(Maxwell tuning guide 1.4.3.1: 'the per-thread-block limit remains "
        "48 KB'); move the largest arrays to dynamic shared memory (extern "
        "__shared__) with the cudaFuncAttributeMaxDynamicSharedMemorySize "
        "opt-in",
        Severity::Error);
    B << F->getNameAsString() << int64_t(Bytes)
      << int64_t(A.max_shared_memory_per_block) << A.Name;
    if (Largest)
      B.note(Largest->getLocation(), "'{0}' alone takes {1} bytes")
          << Largest->getNameAsString()
          << int64_t(Largest->getASTContext()
                         .getTypeSizeInChars(Largest->getType())
                         .getQuantity());
    return;
  }
  if (Bytes * 3 <= A.shared_memory_per_sm)
    return;
  // Shared memory alone decides how many blocks fit, whatever their size.
  LaunchResources R;
  R.ThreadsPerBlock = A.warp_size;
  R.StaticSharedBytes = unsigned(Bytes);
  Occupancy O = computeOccupancy(A, R);
  diag(
      F->getLocation(),
      "kernel '{0}' holds {1} bytes of static __shared__ memory per block ({2} "
      "as allocated): an SM of {3}, with {4} bytes, fits at most {5} of its "
      "blocks whatever their size (Maxwell tuning guide 1.4.3.1 recommends "
      "at most 32 KB per block, so that at least two fit)")
      << F->getNameAsString() << int64_t(Bytes)
      << int64_t(O.SharedBytesPerBlock) << A.Name
      << int64_t(A.shared_memory_per_sm) << int64_t(O.BySharedMemory);
}

WARPLINT_CHECK_FACTORY(SharedCapacityCheck)

} // namespace warplint::memory
