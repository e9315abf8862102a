// Every check listed in Checks.def has its lit test and its doc, and its id
// follows <category>-<what-goes-wrong>.
#include "Core/Check.h"
#include "checks/Registry.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>

using namespace warplint;

TEST(ChecksAudit, EveryCheckHasTestAndDoc) {
  ASSERT_FALSE(allChecks().empty());
  for (const CheckInfo &C : allChecks()) {
    std::string Test =
        std::string(WARPLINT_SOURCE_DIR) + "/test/checks/" + C.Id.str() + ".cu";
    std::string Doc =
        std::string(WARPLINT_SOURCE_DIR) + "/docs/checks/" + C.Id.str() + ".md";
    EXPECT_TRUE(llvm::sys::fs::exists(Test)) << "missing " << Test;
    EXPECT_TRUE(llvm::sys::fs::exists(Doc)) << "missing " << Doc;
  }
}

TEST(ChecksAudit, IdsStartWithTheirCategory) {
  for (const CheckInfo &C : allChecks()) {
    EXPECT_TRUE(C.Id.starts_with((C.Category + "-").str())) << C.Id.str();
    EXPECT_EQ(findCheck(C.Id), &C);
  }
}
