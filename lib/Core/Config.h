// Config: .warplint.yaml, looked up from a file's directory upwards (or given
// with --config-file). Keys follow clang-tidy's: Checks, WarningsAsErrors,
// CheckOptions, plus Arch.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct Config {
  std::string Path; // where it was read from
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::vector<std::string> Arch;
  std::map<std::string, std::string> CheckOptions;
};

// Parses Text as the contents of Path. Errors name the file, line and column.
llvm::Expected<Config> parseConfig(llvm::StringRef Text, llvm::StringRef Path);
llvm::Expected<Config> loadConfigFile(llvm::StringRef Path);

// The .warplint.yaml nearest to File (its directory, then each parent), if any.
std::optional<std::string> findConfigFile(llvm::StringRef File);

// Arch lists may be written "sm_80,sm_90" or as separate items.
void appendArchList(llvm::StringRef Text, std::vector<std::string> &Out);

} // namespace warplint

namespace warplint {

// What applies to one file once the config file and the command line are
// combined, as clang-tidy combines them: the command line's globs come after
// the file's, so they win.
struct EffectiveSettings {
  std::string ChecksText; // "*,<config>,<command line>"
  std::string WarningsAsErrorsText;
  std::vector<std::string> ConfigArchs;
  std::map<std::string, std::string> CheckOptions;
};

EffectiveSettings combineSettings(const Config *FromFile,
                                  llvm::StringRef CliChecks,
                                  llvm::StringRef CliWarningsAsErrors);

} // namespace warplint
