// The device parse's arguments: the features the target lacks, by its rule
// table, become -D__warplint_lacks_<field>, and the header that declares
// what the toolkit leaves out for them is included.
#include "Driver/Runner.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

std::vector<std::string> argsFor(const ArchTable &T, llvm::StringRef Arch) {
  FileTask Task;
  Task.File = "k.cu";
  Task.Flags.IsCuda = true;
  RunEnvironment Env;
  Env.Tables = &T;
  Env.FallbackDir = "/share/include/fallback";
  Env.FeatureHeader = "/share/include/features/warplint_missing_features.h";
  Env.CompatHeader = "/share/include/compat/warplint_nvcc_compat.h";
  Env.ResourceDir = "/resource";
  return buildParseArgs(Task, Env, T.find(Arch));
}

} // namespace

TEST(Runner, DeclaresWhatTheTargetLacks) {
  auto T = ArchTable::loadDirectory(WARPLINT_SOURCE_DIR "/arch-data");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  std::vector<std::string> Sm61 = argsFor(*T, "sm_61");
  EXPECT_TRUE(llvm::is_contained(Sm61, "-D__warplint_lacks_nanosleep"));
  EXPECT_TRUE(
      llvm::is_contained(Sm61, "-D__warplint_lacks_warp_reduce_functions"));
  EXPECT_FALSE(llvm::is_contained(Sm61, "-D__warplint_lacks_atomic_add_fp64"));
  auto Header =
      llvm::find(Sm61, "/share/include/features/warplint_missing_features.h");
  ASSERT_NE(Header, Sm61.end());
  EXPECT_EQ(*std::prev(Header), "-include");

  std::vector<std::string> Sm90 = argsFor(*T, "sm_90");
  EXPECT_FALSE(llvm::any_of(Sm90, [](llvm::StringRef A) {
    return A.starts_with("-D__warplint_lacks_");
  }));
  EXPECT_TRUE(llvm::is_contained(
      Sm90, "/share/include/features/warplint_missing_features.h"));
}

TEST(Runner, DeclaresWhatNvccGivesHostCode) {
  auto T = ArchTable::loadDirectory(WARPLINT_SOURCE_DIR "/arch-data");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  for (llvm::StringRef Arch : {"sm_61", "sm_90"}) {
    std::vector<std::string> Args = argsFor(*T, Arch);
    auto Header =
        llvm::find(Args, "/share/include/compat/warplint_nvcc_compat.h");
    ASSERT_NE(Header, Args.end()) << Arch.str();
    EXPECT_EQ(*std::prev(Header), "-include");
    // No -fopenmp: OpenMP host code parses without changing the analysis.
    EXPECT_FALSE(llvm::is_contained(Args, "-fopenmp"));
  }
}
