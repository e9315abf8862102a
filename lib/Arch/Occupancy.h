// Theoretical occupancy of a kernel launch on one target: how many blocks of
// it an SM holds at once, and which resource stops it at that number. The
// arithmetic is the CUDA Occupancy Calculator's (the toolkit's
// cuda_occupancy.h, which cudaOccupancyMaxActiveBlocksPerMultiprocessor
// follows) with the default cache and carveout preferences; every number
// comes from the target's rule table.
#pragma once
#include "Arch/ArchTable.h"
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
  double fraction() const {
    return MaxWarps ? double(ActiveWarps) / MaxWarps : 0.0;
  }
};

Occupancy computeOccupancy(const ArchInfo &A, const LaunchResources &R);

// What would let one more block fit, keeping the rest as it is: the most
// registers per thread (when registers limit), the most shared bytes per
// block (shared memory), or nullopt when that resource cannot do it (the
// block or warp limit stands in the way too).
std::optional<unsigned> registersForNextBlock(const ArchInfo &A,
                                              const LaunchResources &R);
std::optional<unsigned> sharedBytesForNextBlock(const ArchInfo &A,
                                                const LaunchResources &R);

llvm::StringRef limiterName(OccupancyLimiter L);

} // namespace warplint
