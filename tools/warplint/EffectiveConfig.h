// What a run in the working directory would use, printed instead of a run
// (EffectiveConfig.cpp): --list-checks.
#pragma once
#include "Core/Config.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace warplint::cli {

// --list-checks: the checks that --checks enables over the config.
llvm::Error listChecks(const std::optional<Config> &ExplicitConfig);

} // namespace warplint::cli
