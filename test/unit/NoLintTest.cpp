#include "Core/NoLint.h"
#include <gtest/gtest.h>

using warplint::NoLintIndex;

TEST(NoLint, SameLineAllChecks) {
  NoLintIndex I("a\nx = __shfl(x, 1); // NOLINT\n");
  EXPECT_TRUE(I.suppresses(2, "warp-legacy-intrinsic"));
  EXPECT_FALSE(I.suppresses(1, "warp-legacy-intrinsic"));
}

TEST(NoLint, SameLineListedChecksOnly) {
  NoLintIndex I("x; // NOLINT(memory-*, warp-implicit-sync)\n");
  EXPECT_TRUE(I.suppresses(1, "memory-uncoalesced-access"));
  EXPECT_TRUE(I.suppresses(1, "warp-implicit-sync"));
  EXPECT_FALSE(I.suppresses(1, "warp-legacy-intrinsic"));
}

TEST(NoLint, NextLine) {
  NoLintIndex I("// NOLINTNEXTLINE(warp-legacy-intrinsic)\nx;\ny;\n");
  EXPECT_FALSE(I.suppresses(1, "warp-legacy-intrinsic"));
  EXPECT_TRUE(I.suppresses(2, "warp-legacy-intrinsic"));
  EXPECT_FALSE(I.suppresses(3, "warp-legacy-intrinsic"));
}

TEST(NoLint, BeginEnd) {
  NoLintIndex I("a\n// NOLINTBEGIN(warp-*)\nb\nc\n// NOLINTEND(warp-*)\nd\n");
  EXPECT_FALSE(I.suppresses(1, "warp-legacy-intrinsic"));
  EXPECT_TRUE(I.suppresses(3, "warp-legacy-intrinsic"));
  EXPECT_TRUE(I.suppresses(4, "warp-legacy-intrinsic"));
  EXPECT_FALSE(I.suppresses(4, "memory-uncoalesced-access"));
  EXPECT_FALSE(I.suppresses(6, "warp-legacy-intrinsic"));
  EXPECT_TRUE(I.problems().empty());
}

TEST(NoLint, UnmatchedBeginIsReportedAndSuppressesNothing) {
  NoLintIndex I("// NOLINTBEGIN\nx;\n");
  EXPECT_FALSE(I.suppresses(2, "warp-legacy-intrinsic"));
  ASSERT_EQ(I.problems().size(), 1u);
  EXPECT_EQ(I.problems()[0].Line, 1u);
  EXPECT_NE(I.problems()[0].Message.find("NOLINTBEGIN"), std::string::npos);
}

TEST(NoLint, EndMustMatchBeginsList) {
  NoLintIndex I("// NOLINTBEGIN(a)\nx;\n// NOLINTEND(b)\n");
  EXPECT_EQ(I.problems().size(), 2u);
}

TEST(NoLint, NotADirective) {
  NoLintIndex I("x; // NOLINTFOO\ny; // NOLINT(unterminated\n");
  EXPECT_FALSE(I.suppresses(1, "warp-legacy-intrinsic"));
  EXPECT_FALSE(I.suppresses(2, "warp-legacy-intrinsic"));
}
