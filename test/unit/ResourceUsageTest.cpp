#include "Driver/ResourceUsage.h"
#include <gtest/gtest.h>

using namespace warplint;

// CUDA 13.0's ptxas, as `nvcc -fatbin -Xptxas -v` relays it for two
// targets: a kernel with shared memory, one with a stack and no shared
// memory, and a non-entry function's properties (not a kernel).
static const char *Report = R"(ptxas info    : 272 bytes gmem, 16 bytes cmem[4]
ptxas info    : Compiling entry function '_Z2tkILi256EEvPf' for 'sm_80'
ptxas info    : Function properties for _Z2tkILi256EEvPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]
ptxas info    : Compile time = 24.256 ms
ptxas info    : Compiling entry function '_Z2k2Pd' for 'sm_80'
ptxas info    : Function properties for _Z2k2Pd
    40 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 26 registers, used 0 barriers, 40 bytes cumulative stack size, 360 bytes cmem[0], 32 bytes cmem[2]
ptxas info    : Compile time = 21.685 ms
ptxas info    : Function properties for __internal_trig_reduction_slowpathd
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : 272 bytes gmem
ptxas info    : Compiling entry function '_Z2tkILi256EEvPf' for 'sm_90'
ptxas info    : Function properties for _Z2tkILi256EEvPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem
)";

TEST(ResourceUsage, ReadsPtxasReport) {
  ResourceTable T = parsePtxasOutput(Report);
  ASSERT_EQ(T.size(), 2u);
  ASSERT_EQ(T["sm_80"].size(), 2u);
  KernelResources Tk = T["sm_80"]["_Z2tkILi256EEvPf"];
  EXPECT_EQ(Tk.Registers, 10u);
  EXPECT_EQ(Tk.SharedBytes, 1024u);
  EXPECT_EQ(Tk.SpillBytes, 0u);
  KernelResources K2 = T["sm_80"]["_Z2k2Pd"];
  EXPECT_EQ(K2.Registers, 26u);
  EXPECT_EQ(K2.SharedBytes, 0u);
  EXPECT_EQ(K2.SpillBytes, 12u);
  EXPECT_EQ(T["sm_90"]["_Z2tkILi256EEvPf"].Registers, 12u);
  EXPECT_EQ(T["sm_90"].count("__internal_trig_reduction_slowpathd"), 0u);
}

TEST(ResourceUsage, EmptyOrForeignText) {
  EXPECT_TRUE(parsePtxasOutput("").empty());
  EXPECT_TRUE(parsePtxasOutput("nvcc fatal : Unsupported gpu architecture "
                               "'compute_61'\n")
                  .empty());
}
