// The CLI's own command-line options (Options.cpp), beside those it shares
// with the language server (tools/common/FrontendOptions.h), and how the
// command line is read.
#pragma once
#include "Driver/IRLayer.h"
#include "Driver/Runner.h"
#include "Output/Writers.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint::cli {

extern llvm::cl::list<std::string> Files;
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::opt<OutputFormat> FormatOpt;
extern llvm::cl::opt<std::string> BaselineOpt;
extern llvm::cl::opt<std::string> WriteBaselineOpt;
extern llvm::cl::opt<std::string> SourceRootOpt;
extern llvm::cl::opt<std::string> HelpBaseUrlOpt;
extern llvm::cl::opt<std::string> CacheDirOpt;
extern llvm::cl::opt<std::string> HeaderFilterOpt;
extern llvm::cl::opt<std::string> SarifCategoryOpt;
extern llvm::cl::opt<std::string> WarningsAsErrorsOpt;
extern llvm::cl::opt<std::string> ConfigFileOpt;
extern llvm::cl::opt<bool> ListChecks;
extern llvm::cl::opt<bool> DumpConfigOpt;
extern llvm::cl::opt<bool> FixOpt;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<bool> PtxasOpt;
extern llvm::cl::opt<RegisterSource> RegistersFromOpt;
extern llvm::cl::opt<std::string> NvccOpt;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<unsigned> TimeoutOpt;
extern llvm::cl::opt<std::string> WorkerResultOpt;
extern llvm::cl::opt<unsigned> WorkerIndexOpt;
extern llvm::cl::opt<bool> DumpAnalysisOpt;
extern llvm::cl::opt<IRLayerMode> IRLayerOpt;
extern llvm::cl::opt<bool> OneParseOpt;
extern llvm::cl::opt<bool> PrintParsesOpt;
extern llvm::cl::opt<bool> PrintRegistersOpt;

// The command line split at "--", as clang-tidy splits it: warplint's own
// arguments (the program name first), and the compiler flags after "--".
struct CommandLine {
  std::vector<const char *> Own;
  std::optional<std::vector<std::string>> FixedFlags; // none: no "--"
};

// Splits Argv and parses warplint's own arguments into the options; an
// error is llvm::cl's, on one line.
llvm::Expected<CommandLine> parseCommandLine(int Argc, const char **Argv);

// "warplint: error: Msg" on stderr.
void printError(const llvm::Twine &Msg);

} // namespace warplint::cli
