// --dump-config: the configuration in effect, as clang-tidy's --dump-config
// prints it: a .warplint.yaml that gives the same run, with every option of
// every enabled check at its effective value (its default where nothing
// set it).
#pragma once
#include "Arch/ArchTable.h"
#include "Core/Config.h"
#include <string>
#include <vector>

namespace warplint {

// Archs: the targets the run judges for (--arch, else the config's, else
// the default).
std::string dumpConfig(const EffectiveSettings &Settings,
                       const std::vector<std::string> &Archs,
                       const ArchTable &Tables);

} // namespace warplint
