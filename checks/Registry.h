// The registry: every check warplint knows (checks/Checks.def), and what the
// enabled ones need of the run.
#pragma once
#include "Core/Check.h"
#include "Support/Glob.h"
#include <string>
#include <vector>

namespace warplint {

// Every check, in Checks.def order.
llvm::ArrayRef<CheckInfo> allChecks();
const CheckInfo *findCheck(llvm::StringRef Id);

// The ids of the checks that Enabled turns on and that declared Need.
std::vector<std::string> enabledNeeding(const GlobList &Enabled, unsigned Need);

} // namespace warplint
