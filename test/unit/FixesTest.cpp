// --fix's safety: overlapping fixes refuse their file, a file changed since
// the analysis is left alone, the same edit from two findings is made once.
#include "Output/Fixes.h"
#include "Support/Hashing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

class FixesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fixes", "cu", Path));
    write("int a = f(x);\n");
  }
  void TearDown() override { llvm::sys::fs::remove(Path); }

  void write(llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  std::string read() const {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : "<unreadable>";
  }
  // A finding whose fix replaces [Offset, Offset + Length) of the file as
  // it is now.
  Finding fix(unsigned Line, unsigned Offset, unsigned Length,
              llvm::StringRef Text) const {
    Finding F;
    F.Check = "warp-legacy-intrinsic";
    F.Loc = {std::string(Path), Line, Offset + 1};
    F.Fixes.push_back({std::string(Path), Offset, Length, Text.str(),
                       hexHash(llvm::xxh3_64bits(read()))});
    return F;
  }

  llvm::SmallString<128> Path;
};

TEST_F(FixesTest, AppliesTheSameEditOnce) {
  // One edit found by two files that include the same header.
  FixSummary S = applyFixes({fix(1, 8, 1, "g"), fix(1, 8, 1, "g")});
  EXPECT_TRUE(S.Refused.empty());
  EXPECT_EQ(S.Files, 1u);
  EXPECT_EQ(read(), "int a = g(x);\n");
}

TEST_F(FixesTest, OverlapLeavesTheFileUntouched) {
  std::vector<Finding> Fs = {fix(1, 4, 1, "b"), fix(1, 8, 3, "g(y"),
                             fix(1, 9, 2, "(z")};
  FixSummary S = applyFixes(Fs);
  EXPECT_EQ(S.Files, 0u);
  EXPECT_EQ(S.Applied, 0u);
  ASSERT_EQ(S.Refused.size(), 1u);
  EXPECT_NE(S.Refused[0].find("the fix of [warp-legacy-intrinsic] at 1:10 "
                              "overlaps the fix of [warp-legacy-intrinsic] "
                              "at 1:9; no fixes applied, the file is "
                              "unchanged"),
            std::string::npos)
      << S.Refused[0];
  EXPECT_EQ(read(), "int a = f(x);\n");
}

TEST_F(FixesTest, TwoInsertionsAtOnePlaceConflict) {
  FixSummary S = applyFixes({fix(1, 8, 0, "g"), fix(1, 8, 0, "h")});
  EXPECT_EQ(S.Refused.size(), 1u);
  EXPECT_EQ(read(), "int a = f(x);\n");
}

TEST_F(FixesTest, ChangedOnDiskIsNotOverwritten) {
  Finding F = fix(1, 8, 1, "g");
  write("int a = f(x); // edited\n");
  FixSummary S = applyFixes({F});
  ASSERT_EQ(S.Refused.size(), 1u);
  EXPECT_NE(S.Refused[0].find("changed on disk since it was analysed"),
            std::string::npos);
  EXPECT_EQ(read(), "int a = f(x); // edited\n");
}

TEST_F(FixesTest, ExportLeavesOutAConflictedFile) {
  llvm::SmallString<128> Yaml;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fixes", "yaml", Yaml));
  std::vector<std::string> Refused;
  ASSERT_FALSE(bool(exportFixes({fix(1, 8, 1, "g"), fix(1, 8, 1, "h")}, Path,
                                Yaml, Refused)));
  auto B = llvm::MemoryBuffer::getFile(Yaml);
  llvm::sys::fs::remove(Yaml);
  ASSERT_EQ(Refused.size(), 1u);
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)->getBuffer().find("ReplacementText"), llvm::StringRef::npos);
}

} // namespace
