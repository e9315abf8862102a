#include "Arch/Occupancy.h"
#include <algorithm>
#include <climits>

namespace warplint {

namespace {

unsigned divideRoundUp(unsigned X, unsigned Y) { return (X + Y - 1) / Y; }
unsigned roundUp(unsigned X, unsigned Y) { return Y * divideRoundUp(X, Y); }

// The shared memory an SM gives blocks under the default preference: all of
// its capacity (the largest carveout), as cudaOccSMemPerMultiprocessor.
unsigned sharedPerSM(const ArchInfo &A) { return A.shared_memory_per_sm; }

unsigned registerLimit(const ArchInfo &A, unsigned WarpsPerBlock, unsigned Regs,
                       unsigned &PerBlock) {
  // Registers go to whole warps in allocation units; each sub-partition of
  // the SM holds the warps its share of the register file can take
  // (cudaOccMaxBlocksPerSMRegsLimit).
  unsigned PerWarp = roundUp(Regs * A.warp_size, A.register_allocation_unit);
  PerBlock = PerWarp * WarpsPerBlock;
  unsigned Partitions = std::max(1u, A.register_file_partitions);
  // The hardware checks the block as if its warps filled every partition.
  unsigned Assumed = PerWarp * roundUp(WarpsPerBlock, Partitions);
  if (Regs > A.max_registers_per_thread ||
      A.max_registers_per_block < Assumed ||
      A.max_registers_per_block < PerBlock)
    return 0;
  if (PerWarp == 0)
    return UINT_MAX;
  unsigned WarpsPerPartition = (A.registers_per_sm / Partitions) / PerWarp;
  return WarpsPerPartition * Partitions / WarpsPerBlock;
}

unsigned sharedLimit(const ArchInfo &A, const LaunchResources &R,
                     unsigned &PerBlock) {
  // cudaOccMaxBlocksPerSMSmemLimit: the block's static, reserved and dynamic
  // bytes in allocation units, within the per-block limit (the default, or
  // the opt-in maximum when the kernel asked for more than the default);
  // since Ampere the reserved part comes on top of either limit.
  unsigned Static = R.StaticSharedBytes + A.reserved_shared_memory_per_block;
  PerBlock =
      roundUp(Static + R.DynamicSharedBytes, A.shared_memory_allocation_unit);
  unsigned Limit = A.max_shared_memory_per_block;
  if (R.MaxDynamicSharedOptIn) {
    if (R.DynamicSharedBytes > *R.MaxDynamicSharedOptIn)
      return 0;
    if (Static + *R.MaxDynamicSharedOptIn > A.max_shared_memory_per_block)
      Limit = A.max_shared_memory_per_block_optin;
  }
  if (PerBlock > Limit + A.reserved_shared_memory_per_block)
    return 0;
  if (PerBlock == 0)
    return UINT_MAX;
  return sharedPerSM(A) / PerBlock;
}

} // namespace

llvm::StringRef limiterName(OccupancyLimiter L) {
  switch (L) {
  case OccupancyLimiter::Blocks:
    return "the resident-block limit";
  case OccupancyLimiter::Warps:
    return "the resident-warp limit";
  case OccupancyLimiter::Registers:
    return "registers";
  case OccupancyLimiter::SharedMemory:
    return "shared memory";
  }
  return "";
}

Occupancy computeOccupancy(const ArchInfo &A, const LaunchResources &R) {
  Occupancy O;
  O.MaxWarps = A.max_threads_per_sm / A.warp_size;
  if (R.ThreadsPerBlock == 0 || R.ThreadsPerBlock > A.max_threads_per_block)
    return O; // the launch fails
  O.WarpsPerBlock = divideRoundUp(R.ThreadsPerBlock, A.warp_size);
  O.ByBlocks = A.max_blocks_per_sm;
  O.ByWarps = O.MaxWarps / O.WarpsPerBlock;
  O.ByRegisters = R.RegistersPerThread
                      ? registerLimit(A, O.WarpsPerBlock, *R.RegistersPerThread,
                                      O.RegistersPerBlock)
                      : UINT_MAX;
  O.BySharedMemory = sharedLimit(A, R, O.SharedBytesPerBlock);
  // The first resource to reach the minimum is named, in the calculator's
  // order: blocks, warps, registers, shared memory.
  O.BlocksPerSM = O.ByBlocks;
  O.Limiter = OccupancyLimiter::Blocks;
  auto Consider = [&](unsigned Limit, OccupancyLimiter L) {
    if (Limit < O.BlocksPerSM) {
      O.BlocksPerSM = Limit;
      O.Limiter = L;
    }
  };
  Consider(O.ByWarps, OccupancyLimiter::Warps);
  Consider(O.ByRegisters, OccupancyLimiter::Registers);
  Consider(O.BySharedMemory, OccupancyLimiter::SharedMemory);
  O.ActiveWarps = O.BlocksPerSM * O.WarpsPerBlock;
  return O;
}

std::optional<unsigned> registersForNextBlock(const ArchInfo &A,
                                              const LaunchResources &R) {
  if (!R.RegistersPerThread)
    return std::nullopt;
  Occupancy Now = computeOccupancy(A, R);
  LaunchResources Try = R;
  for (unsigned Regs = *R.RegistersPerThread; Regs-- > 0;) {
    Try.RegistersPerThread = Regs;
    Occupancy O = computeOccupancy(A, Try);
    if (O.BlocksPerSM > Now.BlocksPerSM)
      return Regs;
    if (O.ByRegisters > Now.BlocksPerSM)
      return std::nullopt; // registers no longer limit; something else does
  }
  return std::nullopt;
}

std::optional<unsigned> sharedBytesForNextBlock(const ArchInfo &A,
                                                const LaunchResources &R) {
  Occupancy Now = computeOccupancy(A, R);
  unsigned Want = Now.BlocksPerSM + 1;
  if (Want > std::min({Now.ByBlocks, Now.ByWarps, Now.ByRegisters}))
    return std::nullopt;
  // The most a block may allocate for Want of them, less what is reserved.
  unsigned PerBlock = sharedPerSM(A) / Want / A.shared_memory_allocation_unit *
                      A.shared_memory_allocation_unit;
  if (PerBlock < A.reserved_shared_memory_per_block)
    return std::nullopt;
  return PerBlock - A.reserved_shared_memory_per_block;
}

} // namespace warplint
