// The registry: Checks.def expanded into the table of every check.
#include "Core/Check.h"

namespace warplint {

#define WARPLINT_CHECK(CATEGORY, ID, CLASS, SUMMARY)                           \
  namespace CATEGORY {                                                         \
  std::unique_ptr<Check> create##CLASS(llvm::StringRef, CheckContext &);       \
  }
#include "checks/Checks.def"

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Table[] = {
#define WARPLINT_CHECK(CATEGORY, ID, CLASS, SUMMARY)                           \
  {#CATEGORY, ID, #CLASS, SUMMARY, &CATEGORY::create##CLASS},
#include "checks/Checks.def"
  };
  return Table;
}

} // namespace warplint
