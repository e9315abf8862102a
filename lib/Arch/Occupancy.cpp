#include "Arch/Occupancy.h"
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

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

bool Occupancy::limitedBy(OccupancyLimiter L) const {
  if (BlocksPerSM == 0)
    return false;
  switch (L) {
  case OccupancyLimiter::Blocks:
    return ByBlocks == BlocksPerSM;
  case OccupancyLimiter::Warps:
    return ByWarps == BlocksPerSM;
  case OccupancyLimiter::Registers:
    return ByRegisters == BlocksPerSM;
  case OccupancyLimiter::SharedMemory:
    return BySharedMemory == BlocksPerSM;
  }
  return false;
}

std::string Occupancy::limiterNames() const {
  std::vector<std::string> Names;
  for (OccupancyLimiter L :
       {OccupancyLimiter::Blocks, OccupancyLimiter::Warps,
        OccupancyLimiter::Registers, OccupancyLimiter::SharedMemory})
    if (limitedBy(L))
      Names.push_back(limiterName(L).str());
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " and " : ", ") + Names[I];
  return Out;
}

unsigned registersForBlocks(const ArchInfo &A, unsigned Threads,
                            unsigned Blocks) {
  LaunchResources R;
  R.ThreadsPerBlock = Threads;
  for (unsigned Regs = A.max_registers_per_thread; Regs > 0; --Regs) {
    R.RegistersPerThread = Regs;
    if (computeOccupancy(A, R).ByRegisters >= Blocks)
      return Regs;
  }
  return 0;
}

std::optional<OccupancyStep> nextOccupancyStep(const ArchInfo &A,
                                               const LaunchResources &R,
                                               unsigned MinWarps,
                                               unsigned MaxBlocks) {
  Occupancy Now = computeOccupancy(A, R);
  if (Now.BlocksPerSM == 0)
    return std::nullopt;
  // Registers and shared memory cannot lift the block and warp limits.
  unsigned Cap = std::min({Now.ByBlocks, Now.ByWarps, MaxBlocks});
  for (unsigned Want = Now.BlocksPerSM + 1; Want <= Cap; ++Want) {
    if ((Want - Now.BlocksPerSM) * Now.WarpsPerBlock < MinWarps)
      continue;
    OccupancyStep Step;
    LaunchResources Try = R;
    if (Now.ByRegisters < Want) {
      // The most registers per thread that still fit Want blocks.
      unsigned Regs = registersForBlocks(A, R.ThreadsPerBlock, Want);
      if (Regs == 0 || !R.RegistersPerThread)
        return std::nullopt;
      Step.Registers = Try.RegistersPerThread = Regs;
    }
    if (Now.BySharedMemory < Want) {
      // The most a block may allocate for Want of them, in whole units,
      // less what the system reserves: the bytes the kernel may have.
      unsigned Allocated = sharedPerSM(A) / Want /
                           A.shared_memory_allocation_unit *
                           A.shared_memory_allocation_unit;
      if (Allocated <= A.reserved_shared_memory_per_block)
        return std::nullopt;
      unsigned Bytes = Allocated - A.reserved_shared_memory_per_block;
      // Dynamic bytes shrink first, then static: neither grows.
      Try.DynamicSharedBytes = std::min(R.DynamicSharedBytes, Bytes);
      Try.StaticSharedBytes = Bytes - Try.DynamicSharedBytes;
      Step.SharedBytes = Bytes;
    }
    Step.After = computeOccupancy(A, Try);
    Step.SharedAllocated = Step.After.SharedBytesPerBlock;
    if (Step.After.BlocksPerSM < Want)
      return std::nullopt; // cannot happen: the limits above are the rest
    return Step;
  }
  return std::nullopt;
}

} // namespace warplint
