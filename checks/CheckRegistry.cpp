// The registry: Checks.def expanded into the table of every check.
#include "checks/Registry.h"

namespace warplint {

#define WARPLINT_CHECK(CATEGORY, ID, CLASS, NEEDS, SUMMARY)                    \
  namespace CATEGORY {                                                         \
  std::unique_ptr<Check> create##CLASS(llvm::StringRef, CheckContext &);       \
  }
#include "checks/Checks.def"

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Table[] = {
#define WARPLINT_CHECK(CATEGORY, ID, CLASS, NEEDS, SUMMARY)                    \
  {#CATEGORY, ID, #CLASS, NEEDS, SUMMARY, &CATEGORY::create##CLASS},
#include "checks/Checks.def"
  };
  return Table;
}

const CheckInfo *findCheck(llvm::StringRef Id) {
  for (const CheckInfo &C : allChecks())
    if (C.Id == Id)
      return &C;
  return nullptr;
}

std::vector<std::string> enabledNeeding(const GlobList &Enabled,
                                        unsigned Need) {
  std::vector<std::string> Out;
  for (const CheckInfo &C : allChecks())
    if ((C.Needs & Need) && Enabled.contains(C.Id))
      Out.push_back(C.Id.str());
  return Out;
}

} // namespace warplint
