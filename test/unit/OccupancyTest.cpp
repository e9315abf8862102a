// The occupancy calculator against configurations worked out by hand from
// the programming guide's formula (the arithmetic is in each comment), and,
// when the toolkit's cuda_occupancy.h is there, against NVIDIA's own
// calculator over every target and a grid of launches.
#include "Arch/Occupancy.h"
#include "gtest/gtest.h"
#include <climits>
#include <fstream>
#include <sstream>
#ifdef WARPLINT_CUDA_OCCUPANCY_H
#include WARPLINT_CUDA_OCCUPANCY_H
#endif

using namespace warplint;

namespace {

const ArchTable &tables() {
  static ArchTable T = [] {
    auto L = ArchTable::loadDirectory(WARPLINT_SOURCE_DIR "/arch-data");
    EXPECT_TRUE(bool(L));
    return std::move(*L);
  }();
  return T;
}

Occupancy occ(const char *Arch, unsigned Threads, std::optional<unsigned> Regs,
              unsigned Static = 0, unsigned Dynamic = 0,
              std::optional<unsigned> OptIn = std::nullopt) {
  const ArchInfo *A = tables().find(Arch);
  EXPECT_NE(A, nullptr);
  LaunchResources R;
  R.ThreadsPerBlock = Threads;
  R.RegistersPerThread = Regs;
  R.StaticSharedBytes = Static;
  R.DynamicSharedBytes = Dynamic;
  R.MaxDynamicSharedOptIn = OptIn;
  return computeOccupancy(*A, R);
}

using L = OccupancyLimiter;

TEST(Occupancy, Ampere) {
  // sm_80: 32 blocks, 64 warps, 64 K registers in 4 partitions, allocated in
  // 256s per warp; 164 KB shared per SM, 1 KB reserved per block, 128-byte
  // units, 48 KB per block without opt-in.
  // 256 threads = 8 warps; 32 regs: 32*32 = 1024 per warp; 16384 per
  // partition / 1024 = 16 warps, *4 = 64 warps / 8 = 8 blocks; warps: 64/8
  // = 8; shared: 1024 reserved -> 167936/1024 = 164. min = 8, warps first.
  Occupancy O = occ("sm_80", 256, 32);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.Limiter, L::Warps);
  EXPECT_EQ(O.ActiveWarps, 64u);
  EXPECT_DOUBLE_EQ(O.fraction(), 1.0);
  // 64 regs: 2048 per warp; 16384/2048 = 8 warps per partition, 32 per SM,
  // 32/8 = 4 blocks: 32 warps, 50%.
  O = occ("sm_80", 256, 64);
  EXPECT_EQ(O.BlocksPerSM, 4u);
  EXPECT_EQ(O.Limiter, L::Registers);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
  // 128 threads (4 warps): 40 regs -> 1280 per warp, 16384/1280 = 12 per
  // partition, 48 warps, 12 blocks; 41 regs -> 1312 rounds to 1536,
  // 16384/1536 = 10, 40 warps, 10 blocks.
  EXPECT_EQ(occ("sm_80", 128, 40).BlocksPerSM, 12u);
  EXPECT_EQ(occ("sm_80", 128, 41).BlocksPerSM, 10u);
  // 1024 threads, 64 regs: 2048 * 32 warps = 65536 per block (the limit);
  // 8 warps per partition, 32 per SM, 1 block.
  O = occ("sm_80", 1024, 64);
  EXPECT_EQ(O.BlocksPerSM, 1u);
  EXPECT_EQ(O.Limiter, L::Registers);
  // 65 regs: 2080 rounds to 2304, *32 warps = 73728 > 65536: cannot launch.
  EXPECT_EQ(occ("sm_80", 1024, 65).BlocksPerSM, 0u);
  // 32 threads: 64 warps would fit, the 32-block limit stops at 32 warps.
  O = occ("sm_80", 32, 16);
  EXPECT_EQ(O.BlocksPerSM, 32u);
  EXPECT_EQ(O.Limiter, L::Blocks);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
  // 48 KB static + 1 KB reserved = 50176 (a multiple of 128);
  // 167936/50176 = 3.3 -> 3 blocks, shared memory.
  O = occ("sm_80", 256, std::nullopt, 49152);
  EXPECT_EQ(O.BlocksPerSM, 3u);
  EXPECT_EQ(O.Limiter, L::SharedMemory);
  EXPECT_EQ(O.SharedBytesPerBlock, 50176u);
  // 49153 dynamic bytes without opt-in: 50177 -> 50304 > 48 KB + 1 KB.
  EXPECT_EQ(occ("sm_80", 256, std::nullopt, 0, 49153).BlocksPerSM, 0u);
  // With opt-in to 100000: 1024 + 100000 = 101024 -> 101120 (790 * 128),
  // within 163 KB + 1 KB; 167936/101120 = 1.66 -> 1 block.
  EXPECT_EQ(occ("sm_80", 256, std::nullopt, 0, 100000, 100000).BlocksPerSM, 1u);
  // Dynamic beyond what the attribute allows: cannot launch.
  EXPECT_EQ(occ("sm_80", 256, std::nullopt, 0, 60000, 50000).BlocksPerSM, 0u);
  // Too many threads: cannot launch.
  EXPECT_EQ(occ("sm_80", 1025, 16).BlocksPerSM, 0u);
}

TEST(Occupancy, Pascal) {
  // sm_61: 32 blocks, 64 warps, 64 K registers in 4 partitions, 96 KB shared
  // per SM in 256-byte units, nothing reserved.
  // 256 threads, 32 regs, 12 KB: warps 8, registers 8, shared 98304/12288 = 8.
  Occupancy O = occ("sm_61", 256, 32, 12288);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.Limiter, L::Warps);
  // 192 threads (6 warps), 40 regs, 10000 bytes: warps 64/6 = 10; registers
  // 1280 per warp, 12 per partition, 48/6 = 8; shared 10000 -> 10240,
  // 98304/10240 = 9. Registers: 8 blocks, 48 warps.
  O = occ("sm_61", 192, 40, 10000);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.Limiter, L::Registers);
  EXPECT_EQ(O.SharedBytesPerBlock, 10240u);
  // sm_60 splits its registers in 2 partitions: 96 threads (3 warps), 128
  // regs: 4096 per warp, 32768/4096 = 8 per partition, 16 warps, 16/3 = 5;
  // the hardware check: 4096 * roundup(3, 2) = 16384 <= 65536.
  EXPECT_EQ(occ("sm_60", 96, 128).BlocksPerSM, 5u);
  // With 4 partitions (sm_61): 16384/4096 = 4 per partition, 16 warps, 5.
  EXPECT_EQ(occ("sm_61", 96, 128).BlocksPerSM, 5u);
}

TEST(Occupancy, Turing) {
  // sm_75: 16 blocks, 32 warps, 64 KB shared per SM.
  // 128 threads, 32 regs: warps 32/4 = 8; registers 64/4 = 16: 8, warps.
  Occupancy O = occ("sm_75", 128, 32);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.Limiter, L::Warps);
  // 64 threads: warps 16, blocks 16: the block limit is named first.
  O = occ("sm_75", 64, 32);
  EXPECT_EQ(O.BlocksPerSM, 16u);
  EXPECT_EQ(O.Limiter, L::Blocks);
  // 256 threads, 128 regs: 4096 per warp, 4 per partition, 16 warps, 2
  // blocks of 8 warps: 50%.
  O = occ("sm_75", 256, 128);
  EXPECT_EQ(O.BlocksPerSM, 2u);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
}

TEST(Occupancy, Hopper) {
  // sm_90: 228 KB shared per SM, 1 KB reserved, 128-byte units.
  // 256 threads, 32 KB static: 33792 per block, 233472/33792 = 6.9 -> 6
  // blocks, 48 of 64 warps.
  Occupancy O = occ("sm_90", 256, std::nullopt, 32768);
  EXPECT_EQ(O.BlocksPerSM, 6u);
  EXPECT_EQ(O.Limiter, L::SharedMemory);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.75);
  // 384 threads (12 warps), 48 regs: 1536 per warp, 10 per partition, 40
  // warps, 40/12 = 3 blocks: 36 warps.
  O = occ("sm_90", 384, 48);
  EXPECT_EQ(O.BlocksPerSM, 3u);
  EXPECT_EQ(O.ActiveWarps, 36u);
  // 96 threads, 72 regs, 20000 dynamic: registers 2304 per warp, 7 per
  // partition, 28 warps, 28/3 = 9; shared 21024 -> 21120, 233472/21120 = 11.
  O = occ("sm_90", 96, 72, 0, 20000);
  EXPECT_EQ(O.BlocksPerSM, 9u);
  EXPECT_EQ(O.Limiter, L::Registers);
}

TEST(Occupancy, NextStep) {
  const ArchInfo &A80 = *tables().find("sm_80");
  LaunchResources R;
  R.ThreadsPerBlock = 256;
  R.RegistersPerThread = 64;
  // 4 blocks at 64 regs; 5 blocks need 40 warps, 10 per partition: at most
  // 1638 per warp, 1536 allocated: 48 regs (49 -> 1792, 9 per partition).
  std::optional<OccupancyStep> S = nextOccupancyStep(A80, R, 1);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Registers, 48u);
  EXPECT_FALSE(S->SharedBytes);
  EXPECT_EQ(S->After.BlocksPerSM, 5u);
  EXPECT_EQ(registersForBlocks(A80, 256, 5), 48u);
  R.RegistersPerThread = 32; // warps limit: fewer registers do not help
  EXPECT_FALSE(nextOccupancyStep(A80, R, 1));
  // 3 blocks at 48 KB static; 4 need 167936/4 = 41984 allocated each, less
  // the 1 KB reserved: 40960 bytes, 41984 allocated with the reserve.
  R.RegistersPerThread = std::nullopt;
  R.StaticSharedBytes = 49152;
  S = nextOccupancyStep(A80, R, 1);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->SharedBytes, 40960u);
  EXPECT_EQ(S->SharedAllocated, 41984u);
  EXPECT_EQ(S->After.BlocksPerSM, 4u);
  R.StaticSharedBytes = 40960;
  EXPECT_EQ(computeOccupancy(A80, R).BlocksPerSM, 4u);
  R.StaticSharedBytes = 40961; // one byte more: a unit more, 3 blocks
  EXPECT_EQ(computeOccupancy(A80, R).BlocksPerSM, 3u);

  // The first step of registers can add more than one block: 64 threads (2
  // warps), 92 regs: 2944 -> 3072 per warp, 5 per partition, 20 warps, 10
  // blocks. 11 blocks need 22 warps, 6 per partition: at most 2730 -> 2560
  // per warp = 80 regs, and 6 per partition are 24 warps: 12 blocks.
  LaunchResources D;
  D.ThreadsPerBlock = 64;
  D.RegistersPerThread = 92;
  EXPECT_EQ(computeOccupancy(A80, D).BlocksPerSM, 10u);
  S = nextOccupancyStep(A80, D, 1);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Registers, 80u);
  EXPECT_EQ(S->After.BlocksPerSM, 12u);
  // A minimum gain of 7 warps (10% of 64): 14 blocks, 28 warps, 7 per
  // partition: 2340 -> 2304 per warp = 72 regs; 7 per partition hold 28
  // warps, 14 blocks.
  S = nextOccupancyStep(A80, D, 7);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Registers, 72u);
  EXPECT_EQ(S->After.BlocksPerSM, 14u);
  // No more than 11 blocks wanted (a grid of 11 per SM): the same 80.
  S = nextOccupancyStep(A80, D, 1, 11);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Registers, 80u);
  EXPECT_FALSE(nextOccupancyStep(A80, D, 7, 11));

  // A tie: 256 threads, 128 regs (2 blocks) and 70000 bytes of shared
  // memory (71040 allocated: 2 blocks). Fewer registers alone or less
  // shared memory alone add no block; the step changes both: 3 blocks need
  // 80 regs and 167936/3 = 55978 -> 55936 allocated, 54912 bytes.
  LaunchResources T;
  T.ThreadsPerBlock = 256;
  T.RegistersPerThread = 128;
  T.DynamicSharedBytes = 70000;
  T.MaxDynamicSharedOptIn = 70000;
  Occupancy O = computeOccupancy(A80, T);
  EXPECT_EQ(O.BlocksPerSM, 2u);
  EXPECT_TRUE(O.limitedBy(L::Registers));
  EXPECT_TRUE(O.limitedBy(L::SharedMemory));
  EXPECT_EQ(O.limiterNames(), "registers and shared memory");
  LaunchResources Half = T;
  Half.RegistersPerThread = 80;
  EXPECT_EQ(computeOccupancy(A80, Half).BlocksPerSM, 2u);
  S = nextOccupancyStep(A80, T, 1);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Registers, 80u);
  EXPECT_EQ(S->SharedBytes, 54912u);
  EXPECT_EQ(S->SharedAllocated, 55936u);
  EXPECT_EQ(S->After.BlocksPerSM, 3u);
}

// The H100's own answers (bench/gpu/occupancy-h100-sm90.csv, recorded by
// bench/gpu/run_occupancy.sh): the runtime's blocks per SM and Nsight
// Compute's per-resource limits and theoretical occupancy, for the registers
// and shared memory each compiled kernel really has.
TEST(Occupancy, AgreesWithTheH100) {
  std::ifstream In(WARPLINT_SOURCE_DIR "/bench/gpu/occupancy-h100-sm90.csv");
  ASSERT_TRUE(In.good());
  const ArchInfo &A = *tables().find("sm_90");
  std::string Line;
  unsigned Rows = 0;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#' || Line.rfind("kernel,", 0) == 0)
      continue;
    std::vector<std::string> F;
    std::stringstream SS(Line);
    for (std::string Cell; std::getline(SS, Cell, ',');)
      F.push_back(Cell);
    ASSERT_EQ(F.size(), 11u) << Line;
    LaunchResources R;
    R.ThreadsPerBlock = std::stoul(F[1]);
    R.RegistersPerThread = std::stoul(F[2]);
    R.StaticSharedBytes = std::stoul(F[3]);
    R.DynamicSharedBytes = std::stoul(F[4]);
    if (R.DynamicSharedBytes > 48 * 1024) // the program opts in to exactly it
      R.MaxDynamicSharedOptIn = R.DynamicSharedBytes;
    Occupancy O = computeOccupancy(A, R);
    EXPECT_EQ(O.BlocksPerSM, std::stoul(F[5])) << F[0];
    EXPECT_EQ(O.ByBlocks, std::stoul(F[6])) << F[0];
    EXPECT_EQ(O.ByRegisters, std::stoul(F[7])) << F[0];
    EXPECT_EQ(O.ByWarps, std::stoul(F[9])) << F[0];
    EXPECT_NEAR(O.fraction() * 100, std::stod(F[10]), 0.01) << F[0];
    // Nsight Compute reports shared memory's limit under the carveout the
    // driver chose for the launch: the largest when shared memory limits,
    // and then equal to ours; a smaller one otherwise.
    unsigned NcuShared = std::stoul(F[8]);
    if (O.Limiter == OccupancyLimiter::SharedMemory)
      EXPECT_EQ(O.BySharedMemory, NcuShared) << F[0];
    else
      EXPECT_LE(O.BlocksPerSM, NcuShared) << F[0];
    ++Rows;
  }
  EXPECT_GE(Rows, 20u);
}

#ifdef WARPLINT_CUDA_OCCUPANCY_H
// Every target, a grid of launches: the same blocks per SM as NVIDIA's
// calculator with default cache and carveout preferences.
TEST(Occupancy, AgreesWithCudaOccupancyHeader) {
  unsigned Compared = 0;
  for (const ArchInfo &A : tables().all()) {
    cudaOccDeviceProp P;
    P.computeMajor = A.SM / 10;
    P.computeMinor = A.SM % 10;
    P.maxThreadsPerBlock = A.max_threads_per_block;
    P.maxThreadsPerMultiprocessor = A.max_threads_per_sm;
    P.regsPerBlock = A.max_registers_per_block;
    P.regsPerMultiprocessor = A.registers_per_sm;
    P.warpSize = A.warp_size;
    P.sharedMemPerBlock = A.max_shared_memory_per_block;
    P.sharedMemPerMultiprocessor = A.shared_memory_per_sm;
    P.numSms = 100;
    P.sharedMemPerBlockOptin = A.max_shared_memory_per_block_optin;
    P.reservedSharedMemPerBlock = A.reserved_shared_memory_per_block;
    cudaOccDeviceState State;
    for (unsigned Threads :
         {32u, 64u, 96u, 128u, 192u, 256u, 384u, 512u, 640u, 768u, 1024u})
      for (int Regs :
           {-1, 16, 32, 40, 41, 42, 43, 48, 64, 72, 96, 128, 168, 255})
        for (unsigned Static : {0u, 1000u, 4096u, 12288u, 20000u, 48000u})
          for (unsigned Dynamic : {0u, 8192u, 40000u}) {
            cudaOccFuncAttributes F;
            F.maxThreadsPerBlock = INT_MAX;
            F.numRegs = Regs < 0 ? 0 : Regs;
            F.sharedSizeBytes = Static;
            cudaOccResult Result;
            Result.activeBlocksPerMultiprocessor = -1;
            cudaOccError E = cudaOccMaxActiveBlocksPerMultiprocessor(
                &Result, &P, &F, &State, Threads, Dynamic);
            ASSERT_EQ(E, CUDA_OCC_SUCCESS) << A.Name;
            LaunchResources R;
            R.ThreadsPerBlock = Threads;
            if (Regs >= 0)
              R.RegistersPerThread = Regs;
            R.StaticSharedBytes = Static;
            R.DynamicSharedBytes = Dynamic;
            Occupancy O = computeOccupancy(A, R);
            unsigned Expected = Result.activeBlocksPerMultiprocessor;
            EXPECT_EQ(O.BlocksPerSM, Expected)
                << A.Name << " threads=" << Threads << " regs=" << Regs
                << " static=" << Static << " dynamic=" << Dynamic;
            ++Compared;
          }
  }
  EXPECT_GT(Compared, 10000u);
}

// The steps the checks suggest, against NVIDIA's calculator: at the
// suggested registers and shared bytes (the reserve left out, as the checks
// say them) the header gives the blocks the message promises, and one
// register or one allocation unit more gives fewer than were wanted: the
// thresholds are exact. Ties between registers and shared memory included.
TEST(Occupancy, StepsAgreeWithCudaOccupancyHeader) {
  unsigned Compared = 0, Ties = 0, Both = 0;
  for (const ArchInfo &A : tables().all()) {
    cudaOccDeviceProp P;
    P.computeMajor = A.SM / 10;
    P.computeMinor = A.SM % 10;
    P.maxThreadsPerBlock = A.max_threads_per_block;
    P.maxThreadsPerMultiprocessor = A.max_threads_per_sm;
    P.regsPerBlock = A.max_registers_per_block;
    P.regsPerMultiprocessor = A.registers_per_sm;
    P.warpSize = A.warp_size;
    P.sharedMemPerBlock = A.max_shared_memory_per_block;
    P.sharedMemPerMultiprocessor = A.shared_memory_per_sm;
    P.numSms = 100;
    P.sharedMemPerBlockOptin = A.max_shared_memory_per_block_optin;
    P.reservedSharedMemPerBlock = A.reserved_shared_memory_per_block;
    cudaOccDeviceState State;
    auto Header = [&](unsigned Threads, unsigned Regs, unsigned Static,
                      unsigned Dynamic) {
      cudaOccFuncAttributes F;
      F.maxThreadsPerBlock = INT_MAX;
      F.numRegs = Regs;
      F.sharedSizeBytes = Static;
      F.maxDynamicSharedSizeBytes = INT_MAX; // opted in
      cudaOccResult Result;
      Result.activeBlocksPerMultiprocessor = -1;
      EXPECT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&Result, &P, &F, &State,
                                                        Threads, Dynamic),
                CUDA_OCC_SUCCESS);
      return unsigned(Result.activeBlocksPerMultiprocessor);
    };
    for (unsigned Threads : {32u, 64u, 96u, 128u, 160u, 256u, 384u, 512u})
      for (unsigned Regs : {24u, 33u, 40u, 42u, 43u, 64u, 72u, 80u, 92u, 96u,
                            128u, 130u, 168u, 200u, 255u})
        for (unsigned Static : {0u, 2048u, 9216u, 20000u, 40000u})
          for (unsigned Dynamic : {0u, 12000u, 30000u})
            for (unsigned MinWarps : {1u, 7u}) {
              LaunchResources R;
              R.ThreadsPerBlock = Threads;
              R.RegistersPerThread = Regs;
              R.StaticSharedBytes = Static;
              R.DynamicSharedBytes = Dynamic;
              R.MaxDynamicSharedOptIn = Dynamic;
              Occupancy Now = computeOccupancy(A, R);
              if (Now.BlocksPerSM == 0 ||
                  Header(Threads, Regs, Static, Dynamic) != Now.BlocksPerSM)
                continue; // the launch itself is compared above
              bool Tie =
                  Now.limitedBy(L::Registers) && Now.limitedBy(L::SharedMemory);
              Ties += Tie;
              std::optional<OccupancyStep> S =
                  nextOccupancyStep(A, R, MinWarps);
              // Silent only where no registers and shared size could add
              // the warps: at 1 register and no shared memory the header's
              // blocks, held by the block and warp limits, add fewer.
              unsigned Ceiling = Header(Threads, 1, 0, 0);
              if (!S) {
                EXPECT_LT((Ceiling - Now.BlocksPerSM) * Now.WarpsPerBlock,
                          MinWarps)
                    << A.Name << " threads=" << Threads << " regs=" << Regs
                    << " static=" << Static << " dynamic=" << Dynamic;
                continue;
              }
              unsigned NewRegs = S->Registers.value_or(Regs);
              unsigned NewShared = S->SharedBytes.value_or(Static + Dynamic);
              // The header at the step: the promised blocks.
              unsigned Got = Header(Threads, NewRegs, 0, NewShared);
              EXPECT_EQ(Got, S->After.BlocksPerSM)
                  << A.Name << " threads=" << Threads << " regs=" << Regs
                  << " static=" << Static << " dynamic=" << Dynamic;
              EXPECT_GE((S->After.BlocksPerSM - Now.BlocksPerSM) *
                            Now.WarpsPerBlock,
                        MinWarps);
              // Each changed resource at its limit: one register, or one
              // allocation unit, more and it no longer gives those blocks.
              if (S->Registers)
                EXPECT_LT(Header(Threads, NewRegs + 1, 0, NewShared),
                          S->After.BlocksPerSM)
                    << A.Name << " threads=" << Threads << " regs=" << Regs;
              if (S->SharedBytes)
                EXPECT_LT(Header(Threads, NewRegs, 0,
                                 NewShared + A.shared_memory_allocation_unit),
                          S->After.BlocksPerSM)
                    << A.Name << " threads=" << Threads << " static=" << Static
                    << " dynamic=" << Dynamic;
              // A tie is never broken by one resource alone.
              if (Tie) {
                EXPECT_TRUE(S->Registers && S->SharedBytes);
                EXPECT_EQ(Header(Threads, NewRegs, Static, Dynamic),
                          Now.BlocksPerSM);
                EXPECT_EQ(Header(Threads, Regs, 0, NewShared), Now.BlocksPerSM);
              }
              Both += S->Registers && S->SharedBytes;
              ++Compared;
            }
  }
  EXPECT_GT(Compared, 5000u);
  EXPECT_GT(Ties, 10u);
  EXPECT_GT(Both, 10u);
}
#endif

} // namespace
