#include "Support/Glob.h"
#include <gtest/gtest.h>

using warplint::GlobList;

TEST(GlobList, LastMatchDecides) {
  GlobList G("-*,warp-*");
  EXPECT_TRUE(G.contains("warp-legacy-intrinsic"));
  EXPECT_FALSE(G.contains("memory-uncoalesced-access"));
  GlobList H("*,-warp-legacy-intrinsic");
  EXPECT_FALSE(H.contains("warp-legacy-intrinsic"));
  EXPECT_TRUE(H.contains("warp-implicit-sync"));
}

TEST(GlobList, EmptyMatchesNothing) {
  EXPECT_FALSE(GlobList("").contains("warp-legacy-intrinsic"));
}

TEST(GlobList, SpacesAndNewlinesSeparate) {
  GlobList G(" -* ,\n memory-* ");
  EXPECT_TRUE(G.contains("memory-shared-bank-conflict"));
  EXPECT_FALSE(G.contains("warp-implicit-sync"));
}

TEST(GlobList, StarInTheMiddle) {
  GlobList G("*-bank-*");
  EXPECT_TRUE(G.contains("memory-shared-bank-conflict"));
  EXPECT_FALSE(G.contains("memory-shared-capacity"));
}
