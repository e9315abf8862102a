// What a run in the working directory would use, printed instead of a run
// (EffectiveConfig.cpp): --list-checks and --dump-config.
#pragma once
#include "Arch/ArchTable.h"
#include "Core/Config.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace warplint::cli {

// --list-checks: the checks that --checks enables over the config.
llvm::Error listChecks(const std::optional<Config> &ExplicitConfig);

// --dump-config: the config with --checks and --warnings-as-errors applied,
// the targets (--arch, else the config's Arch, else sm_80) and every
// enabled check's options, as a .warplint.yaml that gives the same run.
llvm::Error dumpConfig(const std::optional<Config> &ExplicitConfig,
                       const ArchTable &Tables);

} // namespace warplint::cli
