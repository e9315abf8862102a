#include "Driver/DumpConfig.h"
#include "Core/Check.h"
#include "checks/Registry.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace {

struct DumpedConfig {
  std::string Checks;
  std::string WarningsAsErrors;
  std::vector<std::string> Arch;
  std::map<std::string, std::string> CheckOptions;
};

} // namespace

namespace llvm::yaml {

template <> struct CustomMappingTraits<std::map<std::string, std::string>> {
  static void inputOne(IO &, StringRef, std::map<std::string, std::string> &) {}
  static void output(IO &Out, std::map<std::string, std::string> &M) {
    for (auto &[Key, Value] : M)
      Out.mapRequired(Key.c_str(), Value);
  }
};

template <> struct MappingTraits<DumpedConfig> {
  static void mapping(IO &Out, DumpedConfig &C) {
    Out.mapRequired("Checks", C.Checks);
    Out.mapRequired("WarningsAsErrors", C.WarningsAsErrors);
    Out.mapRequired("Arch", C.Arch);
    Out.mapRequired("CheckOptions", C.CheckOptions);
  }
};

} // namespace llvm::yaml

namespace warplint {

std::string dumpConfig(const EffectiveSettings &Settings,
                       const std::vector<std::string> &Archs,
                       const ArchTable &Tables) {
  DumpedConfig Out;
  Out.Checks = Settings.ChecksText;
  Out.WarningsAsErrors = Settings.WarningsAsErrorsText;
  Out.Arch = Archs;
  // What the user set, then what each enabled check reads (its defaults
  // included), as the check itself records it.
  Out.CheckOptions = Settings.CheckOptions;
  GlobList Enabled(Settings.ChecksText);
  GlobList WarningsAsErrors(Settings.WarningsAsErrorsText);
  DiagSink Unused;
  CheckContext Ctx(Tables, nullptr, Settings.CheckOptions, WarningsAsErrors,
                   Unused);
  for (const CheckInfo &Info : allChecks())
    if (Enabled.contains(Info.Id))
      Info.Create(Info.Id, Ctx)->storeOptions(Out.CheckOptions);

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output Yaml(OS);
  Yaml << Out;
  return Text;
}

} // namespace warplint
