// What a run in the working directory would use: the config it finds (as a
// file's analysis finds its own), combined with the command line's globs.
#include "EffectiveConfig.h"
#include "Core/Check.h"
#include "Driver/DumpConfig.h"
#include "Options.h"
#include "checks/Registry.h"
#include "tools/common/FrontendOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace warplint::frontend;

namespace warplint::cli {

namespace {

// --config-file, else the .warplint.yaml nearest to the working directory;
// nothing when there is neither.
Expected<std::optional<Config>>
configHere(const std::optional<Config> &ExplicitConfig) {
  if (ExplicitConfig)
    return ExplicitConfig;
  SmallString<256> Here;
  sys::fs::current_path(Here);
  sys::path::append(Here, "x");
  std::optional<std::string> Path = findConfigFile(Here);
  if (!Path)
    return std::nullopt;
  auto C = loadConfigFile(*Path);
  if (!C)
    return C.takeError();
  return std::move(*C);
}

} // namespace

Error listChecks(const std::optional<Config> &ExplicitConfig) {
  Expected<std::optional<Config>> Cfg = configHere(ExplicitConfig);
  if (!Cfg)
    return Cfg.takeError();
  GlobList Enabled(
      combineSettings(*Cfg ? &**Cfg : nullptr, ChecksOpt, "").ChecksText);
  outs() << "Enabled checks:\n";
  for (const CheckInfo &C : allChecks())
    if (Enabled.contains(C.Id))
      outs() << "    " << C.Id << "\n";
  outs() << "\n";
  return Error::success();
}

Error dumpConfig(const std::optional<Config> &ExplicitConfig,
                 const ArchTable &Tables) {
  Expected<std::optional<Config>> Cfg = configHere(ExplicitConfig);
  if (!Cfg)
    return Cfg.takeError();
  EffectiveSettings Settings =
      combineSettings(*Cfg ? &**Cfg : nullptr, ChecksOpt, WarningsAsErrorsOpt);
  std::vector<std::string> Archs(ArchOpt.begin(), ArchOpt.end());
  if (Archs.empty())
    Archs = Settings.ConfigArchs;
  if (Archs.empty())
    Archs = {"sm_80"};
  outs() << warplint::dumpConfig(Settings, Archs, Tables);
  return Error::success();
}

} // namespace warplint::cli
