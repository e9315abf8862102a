#include "Driver/NvccFlags.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

using namespace warplint;

static bool has(const std::vector<std::string> &V, const std::string &S) {
  return llvm::is_contained(V, S);
}

TEST(NvccFlags, ArchSpellings) {
  auto F = translateCommand(
      {"/usr/local/cuda/bin/nvcc", "-arch=sm_70", "-c", "k.cu", "-o", "k.o"},
      "k.cu", "/b");
  EXPECT_EQ(F.Archs, std::vector<std::string>{"sm_70"});
  EXPECT_TRUE(F.IsCuda);
  EXPECT_TRUE(F.Args.empty());
  EXPECT_TRUE(F.Dropped.empty());

  auto G = translateCommand(
      {"nvcc", "--gpu-architecture", "compute_86", "k.cu"}, "k.cu", "/b");
  EXPECT_EQ(G.Archs, std::vector<std::string>{"sm_86"});
}

TEST(NvccFlags, GencodeTakesCodeTargets) {
  auto F = translateCommand(
      {"nvcc", "-gencode", "arch=compute_80,code=sm_80",
       "-gencode=arch=compute_90,code=[sm_90,compute_90]",
       "--generate-code=arch=compute_70,code=[compute_70,sm_70]", "k.cu"},
      "k.cu", "/b");
  EXPECT_EQ(F.Archs, (std::vector<std::string>{"sm_80", "sm_90", "sm_70"}));
}

TEST(NvccFlags, HostFlagsAndKnownExtensions) {
  auto F = translateCommand({"nvcc", "-Xcompiler", "-fopenmp,-DHOST=1",
                             "-Xcompiler=-Wall", "--expt-relaxed-constexpr",
                             "--extended-lambda", "-Xptxas", "-v", "-I", "inc",
                             "-DFOO", "-std=c++17", "-O3", "-rdc=true",
                             "--use_fast_math", "-lineinfo", "k.cu"},
                            "k.cu", "/b");
  EXPECT_TRUE(has(F.Args, "-fopenmp"));
  EXPECT_TRUE(has(F.Args, "-DHOST=1"));
  EXPECT_TRUE(has(F.Args, "-Wall"));
  EXPECT_TRUE(has(F.Args, "-Iinc"));
  EXPECT_TRUE(has(F.Args, "-DFOO"));
  EXPECT_TRUE(has(F.Args, "-std=c++17"));
  EXPECT_TRUE(has(F.Args, "-O3"));
  EXPECT_TRUE(has(F.Args, "-fgpu-rdc"));
  EXPECT_TRUE(has(F.Args, "-ffast-math"));
  EXPECT_FALSE(has(F.Args, "-v"));
  EXPECT_TRUE(F.Dropped.empty());
}

TEST(NvccFlags, UnknownNvccFlagIsDroppedNotFatal) {
  auto F = translateCommand({"nvcc", "--some-future-flag", "-DX", "k.cu"},
                            "k.cu", "/b");
  EXPECT_TRUE(has(F.Dropped, "--some-future-flag"));
  EXPECT_TRUE(has(F.Args, "-DX"));
}

TEST(NvccFlags, ClangCommandKeepsFlagsDropsTargetsAndOutputs) {
  auto F =
      translateCommand({"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_75", "-I",
                        "inc", "-c", "k.cu", "-o", "k.o", "-MD", "-MF", "k.d"},
                       "k.cu", "/b");
  EXPECT_EQ(F.Archs, std::vector<std::string>{"sm_75"});
  EXPECT_EQ(F.Args, (std::vector<std::string>{"-I", "inc"}));
  EXPECT_TRUE(F.IsCuda);
}

TEST(NvccFlags, DropUnknownDriverFlags) {
  CompileFlags F;
  F.Args = {"-DX", "-fno-such-flag-anywhere", "-isystem", "/i", "-O2"};
  dropUnknownDriverFlags(F);
  EXPECT_EQ(F.Args, (std::vector<std::string>{"-DX", "-isystem", "/i", "-O2"}));
  EXPECT_TRUE(has(F.Dropped, "-fno-such-flag-anywhere"));
}

TEST(NvccFlags, NormaliseArch) {
  EXPECT_EQ(normaliseArch("sm_90a"), "sm_90");
  EXPECT_EQ(normaliseArch("compute_100f"), "sm_100");
  EXPECT_EQ(normaliseArch("native"), "");
}
