#include "Core/Config.h"
#include <gtest/gtest.h>

using namespace warplint;

TEST(Config, AllKeys) {
  auto C = parseConfig("Checks: '-*,warp-*'\n"
                       "WarningsAsErrors: warp-legacy-intrinsic\n"
                       "Arch: [sm_70, sm_90]\n"
                       "CheckOptions:\n"
                       "  memory-uncoalesced-access.MinSectors: 4\n",
                       "x.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(*C->Checks, "-*,warp-*");
  EXPECT_EQ(*C->WarningsAsErrors, "warp-legacy-intrinsic");
  ASSERT_EQ(C->Arch.size(), 2u);
  EXPECT_EQ(C->Arch[1], "sm_90");
  EXPECT_EQ(C->CheckOptions["memory-uncoalesced-access.MinSectors"], "4");
}

TEST(Config, CheckOptionsAsClangTidyList) {
  auto C =
      parseConfig("CheckOptions:\n  - key: a.B\n    value: '1'\n", "x.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->CheckOptions["a.B"], "1");
}

TEST(Config, EmptyFileIsFine) {
  auto C = parseConfig("", "x.yaml");
  ASSERT_TRUE(bool(C));
  EXPECT_FALSE(C->Checks.has_value());
}

TEST(Config, UnknownKeyNamesFileAndLine) {
  auto C = parseConfig("Checks: '*'\nChekcs: x\n", "dir/.warplint.yaml");
  ASSERT_FALSE(bool(C));
  std::string M = llvm::toString(C.takeError());
  EXPECT_NE(M.find("dir/.warplint.yaml:2:1"), std::string::npos) << M;
  EXPECT_NE(M.find("unknown key 'Chekcs'"), std::string::npos) << M;
}

TEST(Config, SyntaxErrorNamesFile) {
  auto C = parseConfig("Checks: [a, b\n", "c.yaml");
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("c.yaml:"), std::string::npos);
}

TEST(Config, CommandLineGlobsComeLast) {
  Config C;
  C.Checks = "-*,warp-*";
  EffectiveSettings S = combineSettings(&C, "-warp-legacy-intrinsic", "");
  EXPECT_EQ(S.ChecksText, "*,-*,warp-*,-warp-legacy-intrinsic");
}
