#include "Driver/NvccFlags.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
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
  // -Xptxas changes the device code: named once; -lineinfo is the build's.
  EXPECT_TRUE(has(F.IgnoredNvcc, "-Xptxas"));
  EXPECT_FALSE(has(F.IgnoredNvcc, "-lineinfo"));
  EXPECT_FALSE(has(F.IgnoredNvcc, "-c"));
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

// A command Clang's tooling interpolated for a file not in the database (a
// header, a new file) ends in "-- <file>": nothing after "--" is a flag.
TEST(NvccFlags, InterpolatedCommandEndsInDashDash) {
  auto F =
      translateCommand({"clang++", "-I", "inc", "-x", "cuda", "--", "/s/k.cuh"},
                       "/s/k.cuh", "/b");
  EXPECT_EQ(F.Args, (std::vector<std::string>{"-I", "inc"}));
  EXPECT_TRUE(F.IsCuda);
  EXPECT_TRUE(F.Dropped.empty());
  auto N = translateCommand(
      {"/usr/local/cuda/bin/nvcc", "-arch=sm_60", "--", "/s/k.cuh"}, "/s/k.cuh",
      "/b");
  EXPECT_EQ(N.Archs, std::vector<std::string>{"sm_60"});
  EXPECT_FALSE(has(N.Args, "--"));
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

// CMake puts -forward-unknown-to-host-compiler on every nvcc command, and
// target_compile_options(-Wall) then reaches the host compiler through nvcc:
// such flags are the host's, not untranslatable.
TEST(NvccFlags, ForwardUnknownToHostCompiler) {
  auto F = translateCommand({"nvcc", "-Wall", "-fno-strict-aliasing",
                             "-forward-unknown-to-host-compiler",
                             "--extra-device-vectorization", "-dlto",
                             "--ftemplate-depth", "64", "-noeh", "k.cu"},
                            "k.cu", "/b");
  EXPECT_TRUE(has(F.Args, "-Wall"));
  EXPECT_TRUE(has(F.Args, "-fno-strict-aliasing"));
  EXPECT_TRUE(has(F.Args, "-ftemplate-depth=64"));
  EXPECT_TRUE(has(F.Args, "-fno-exceptions"));
  // nvcc's own options are never forwarded.
  EXPECT_FALSE(has(F.Args, "--extra-device-vectorization"));
  EXPECT_FALSE(has(F.Args, "-dlto"));
  EXPECT_TRUE(F.Dropped.empty());

  // Without it nvcc would refuse them: dropped, with the warning.
  auto G = translateCommand({"nvcc", "-Wall", "k.cu"}, "k.cu", "/b");
  EXPECT_TRUE(has(G.Dropped, "-Wall"));
  EXPECT_FALSE(has(G.Args, "-Wall"));

  // A forwarded flag clang's driver does not know is still dropped there.
  auto H = translateCommand(
      {"nvcc", "--forward-unknown-opts", "-fno-such-flag-anywhere", "k.cu"},
      "k.cu", "/b");
  dropUnknownDriverFlags(H);
  EXPECT_TRUE(has(H.Dropped, "-fno-such-flag-anywhere"));
}

// A scratch directory with files, removed at the end.
namespace {
struct ScratchDir {
  llvm::SmallString<128> Path;
  ScratchDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("nvccflags", Path));
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(Path); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
  }
};
} // namespace

// CMake's CMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES: nvcc reads the include
// directories from --options-file, relative to the command's directory;
// nested, quoted, and with nvcc's own flags inside.
TEST(NvccFlags, OptionsFile) {
  ScratchDir D;
  D.write("includes_CUDA.rsp",
          "-I\"/src/my include\" -isystem /sys -optf more.rsp\n");
  D.write("more.rsp", "-DFROM_FILE=1 -arch=sm_75 -Xcompiler=-fPIC\n");
  auto F = translateCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "-c", "k.cu"}, "k.cu",
      D.Path);
  EXPECT_TRUE(has(F.Args, "-I/src/my include"));
  EXPECT_TRUE(has(F.Args, "-isystem"));
  EXPECT_TRUE(has(F.Args, "/sys"));
  EXPECT_TRUE(has(F.Args, "-DFROM_FILE=1"));
  EXPECT_TRUE(has(F.Args, "-fPIC"));
  EXPECT_EQ(F.Archs, std::vector<std::string>{"sm_75"});
  EXPECT_TRUE(F.Dropped.empty());

  // A missing file is reported, not fatal.
  auto G = translateCommand({"nvcc", "-optf=gone.rsp", "k.cu"}, "k.cu", D.Path);
  EXPECT_TRUE(has(G.Dropped, "-optf=gone.rsp gone.rsp"));
}

// The same with clang as CMake's CUDA compiler: @file, relative to the
// command's directory.
TEST(NvccFlags, ClangResponseFile) {
  ScratchDir D;
  D.write("includes_CUDA.rsp", "-I\"/src/my include\" @nested.rsp\n");
  D.write("nested.rsp", "--cuda-gpu-arch=sm_86 -DNESTED\n");
  auto F = translateCommand({"clang++", "@includes_CUDA.rsp", "-x", "cuda",
                             "-c", "k.cu", "-o", "k.o"},
                            "k.cu", D.Path);
  EXPECT_EQ(F.Args,
            (std::vector<std::string>{"-I/src/my include", "-DNESTED"}));
  EXPECT_EQ(F.Archs, std::vector<std::string>{"sm_86"});
  EXPECT_TRUE(F.Dropped.empty());

  auto G = translateCommand({"clang++", "@gone.rsp", "k.cu"}, "k.cu", D.Path);
  EXPECT_TRUE(has(G.Dropped, "@gone.rsp"));
}
