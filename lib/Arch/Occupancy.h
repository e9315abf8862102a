// Theoretical occupancy of a kernel launch on one target: how many blocks of
// it an SM holds at once, and which resource stops it at that number. The
// arithmetic is the CUDA Occupancy Calculator's (the toolkit's
// cuda_occupancy.h, which cudaOccupancyMaxActiveBlocksPerMultiprocessor
// follows) with the default cache and carveout preferences; every number
// comes from the target's rule table.
#pragma once
#include "Arch/ArchTable.h"
#include <climits>
#include <optional>
#include <string>

namespace warplint {

struct LaunchResources {
  unsigned ThreadsPerBlock = 0;
  // Unknown (no ptxas, no __launch_bounds__/-maxrregcount): registers are
  // left out of the verdict.
  std::optional<unsigned> RegistersPerThread;
  unsigned StaticSharedBytes = 0;  // __shared__ of the kernel and its callees
  unsigned DynamicSharedBytes = 0; // the launch's third argument
  // cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, N)
  // seen for the kernel: N. Without it a block may not pass the default
  // per-block limit (48 KB); with it, up to the target's opt-in maximum, and
  // the launch's dynamic size up to N.
  std::optional<unsigned> MaxDynamicSharedOptIn;
};

enum class OccupancyLimiter { Blocks, Warps, Registers, SharedMemory };

struct Occupancy {
  unsigned BlocksPerSM = 0; // 0: the launch cannot run at all
  unsigned WarpsPerBlock = 0;
  unsigned ActiveWarps = 0; // BlocksPerSM * WarpsPerBlock
  unsigned MaxWarps = 0;    // the SM's resident-warp limit
  // The limit each resource alone sets (UINT_MAX: no limit).
  unsigned ByBlocks = 0, ByWarps = 0, ByRegisters = 0, BySharedMemory = 0;
  OccupancyLimiter Limiter = OccupancyLimiter::Blocks;
  unsigned RegistersPerBlock = 0;   // allocated, whole warps, rounded
  unsigned SharedBytesPerBlock = 0; // allocated, reserved part included
  // Whether resource L alone holds the SM at BlocksPerSM (ties: several).
  bool limitedBy(OccupancyLimiter L) const;
  // The resources that hold it there, in the calculator's order, named and
  // joined ("registers and shared memory").
  std::string limiterNames() const;
  double fraction() const {
    return MaxWarps ? double(ActiveWarps) / MaxWarps : 0.0;
  }
};

Occupancy computeOccupancy(const ArchInfo &A, const LaunchResources &R);

// What a change to the kernel's registers per thread and shared memory per
// block, the rest kept, would let fit: the smallest such step that adds at
// least MinWarps resident warps per SM and no more than MaxBlocks blocks are
// needed. Every resource that stops the blocks wanted (both, where registers
// and shared memory tie) changes; the numbers are computeOccupancy's at the
// changed values, so the step is true when applied.
struct OccupancyStep {
  // At most this many registers per thread; unset where registers need not
  // change.
  std::optional<unsigned> Registers;
  // At most this many bytes of static and dynamic shared memory per block
  // (the reserved part not included), and what a block then allocates (it
  // included); unset where shared memory need not change.
  std::optional<unsigned> SharedBytes;
  unsigned SharedAllocated = 0;
  Occupancy After;
};
std::optional<OccupancyStep> nextOccupancyStep(const ArchInfo &A,
                                               const LaunchResources &R,
                                               unsigned MinWarps,
                                               unsigned MaxBlocks = UINT_MAX);

// The most registers per thread with which Blocks blocks of Threads threads
// fit an SM by registers alone (the cap __launch_bounds__(Threads, Blocks)
// puts on ptxas); 0 when none does.
unsigned registersForBlocks(const ArchInfo &A, unsigned Threads,
                            unsigned Blocks);

llvm::StringRef limiterName(OccupancyLimiter L);

} // namespace warplint
