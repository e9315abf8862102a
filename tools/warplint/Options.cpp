// The CLI's own command-line options, and how its command line is read.
#include "Options.h"
#include "tools/common/FrontendOptions.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace warplint::frontend;

namespace warplint::cli {

cl::list<std::string> Files(cl::Positional, cl::desc("<files...>"),
                            cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Build directory with compile_commands.json (or the file "
             "itself); nvcc commands in it are translated"),
    cl::value_desc("build dir"), cl::cat(Category));
cl::opt<OutputFormat> FormatOpt(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "clang-style text"),
               clEnumValN(OutputFormat::Json, "json", "one JSON document"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(OutputFormat::Github, "github",
                          "GitHub Actions annotations"),
               clEnumValN(OutputFormat::CodeClimate, "codeclimate",
                          "GitLab Code Quality (Code Climate JSON)")),
    cl::cat(Category));
cl::opt<std::string> BaselineOpt(
    "baseline",
    cl::desc("Leave out the findings recorded in this file by "
             "--write-baseline (matched by fingerprint, not line): gate only "
             "new findings"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselineOpt(
    "write-baseline",
    cl::desc("Record every finding of this run in this file, for --baseline, "
             "and exit 0 unless the analysis failed"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SourceRootOpt(
    "source-root",
    cl::desc("Directory that SARIF (%SRCROOT%), Code Climate and baseline "
             "paths are relative to (default: the working directory)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> HelpBaseUrlOpt(
    "help-base-url",
    cl::desc("URL of the directory of check docs: SARIF's helpUri is "
             "<url>/<check-id>.md (default: none)"),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string> CacheDirOpt(
    "cache-dir",
    cl::desc("Keep each file's results here and reuse them while the file, "
             "every file it includes, the flags and the config are unchanged "
             "(also $WARPLINT_CACHE_DIR)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> HeaderFilterOpt(
    "header-filter",
    cl::desc("Regular expression of the headers whose findings are shown "
             "(default: every header outside the system's); each header's "
             "findings are shown once per run, whichever files include it"),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> SarifCategoryOpt(
    "sarif-category",
    cl::desc("SARIF runAutomationDetails id (code scanning's category)"),
    cl::init("warplint"), cl::cat(Category));
cl::opt<std::string> WarningsAsErrorsOpt(
    "warnings-as-errors",
    cl::desc("Globs of checks whose warnings fail the run (exit 1)"),
    cl::cat(Category));
cl::opt<std::string> ConfigFileOpt(
    "config-file",
    cl::desc("Read this config instead of the nearest .warplint.yaml"),
    cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit"),
                         cl::cat(Category));
cl::opt<bool> DumpConfigOpt(
    "dump-config",
    cl::desc("Print the configuration in effect (--config-file or the nearest "
             ".warplint.yaml, with --checks, --warnings-as-errors and --arch) "
             "as YAML, every enabled check's options included, and exit"),
    cl::cat(Category));
cl::opt<bool> FixOpt("fix", cl::desc("Apply the suggested fixes in place"),
                     cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the suggested fixes as clang-apply-replacements YAML"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("No summary or notices on stderr"),
                    cl::cat(Category));
cl::opt<bool> PtxasOpt(
    "ptxas",
    cl::desc("Ask the toolkit's ptxas for the registers of each kernel whose "
             "launch launch-occupancy judges (cached; see --registers-from); "
             "--ptxas=false uses only __launch_bounds__ and -maxrregcount"),
    cl::init(true), cl::cat(Category));
cl::opt<RegisterSource> RegistersFromOpt(
    "registers-from",
    cl::desc("What ptxas compiles for the registers (default: ir)"),
    cl::values(
        clEnumValN(RegisterSource::IR, "ir",
                   "the PTX warplint generates of the launched kernels "
                   "(clang's -O3 code generation; no second front end)"),
        clEnumValN(RegisterSource::Nvcc, "nvcc",
                   "the whole file, compiled by the toolkit's nvcc beside "
                   "the parse: nvcc's own register counts, at the cost of a "
                   "full device compile")),
    cl::init(RegisterSource::IR), cl::cat(Category));
cl::opt<std::string>
    NvccOpt("nvcc",
            cl::desc("The nvcc --registers-from=nvcc runs; its bin/ptxas and "
                     "nvvm/libdevice serve --registers-from=ir (default: the "
                     "toolkit's bin/nvcc)"),
            cl::value_desc("path"), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Files analysed in parallel"), cl::init(1),
                       cl::cat(Category));

cl::opt<unsigned> TimeoutOpt(
    "timeout",
    cl::desc("Stop the analysis of a file after this many seconds: the file "
             "gets an error naming the limit (exit 2), the others are still "
             "analysed. Each file is then analysed in a child process "
             "(default: 0, no limit)"),
    cl::value_desc("seconds"), cl::init(0), cl::cat(Category));
// --timeout's child process: analyse input WorkerIndex only and write its
// result to this file.
cl::opt<std::string> WorkerResultOpt("internal-worker-result", cl::ReallyHidden,
                                     cl::cat(Category));
cl::opt<unsigned> WorkerIndexOpt("internal-worker-index", cl::ReallyHidden,
                                 cl::cat(Category));

cl::opt<bool> DumpAnalysisOpt(
    "dump-analysis",
    cl::desc("Print the thread-dependence and thread-index analyses of each "
             "device function instead of running the checks"),
    cl::cat(Category));

cl::opt<IRLayerMode> IRLayerOpt(
    "ir-layer",
    cl::desc("divergence-barrier on the device LLVM IR too, through inlined "
             "calls, and the memory checks on what -O3 leaves of each access"),
    cl::init(IRLayerMode::On),
    cl::values(clEnumValN(IRLayerMode::On, "true", "with the AST checks"),
               clEnumValN(IRLayerMode::Off, "false", "the AST checks only"),
               clEnumValN(IRLayerMode::Only, "only",
                          "the IR layer only (to test it)")),
    cl::cat(Category));

// Hidden: the equivalence test runs every input both ways.
cl::opt<bool> OneParseOpt(
    "one-parse",
    cl::desc("Judge several targets on one parse where the code does not "
             "depend on the target (false: a parse per target)"),
    cl::init(true), cl::Hidden, cl::cat(Category));
cl::opt<bool> PrintRegistersOpt(
    "print-registers",
    cl::desc("Say on stderr the registers of each kernel launch-occupancy "
             "asked for, or why they are not known"),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> PrintParsesOpt(
    "print-parses",
    cl::desc("Say on stderr how each file's targets were parsed, and why"),
    cl::Hidden, cl::cat(Category));

namespace {

// One line: llvm::cl may say two things ("Unknown command line argument",
// "Did you mean").
std::string oneLine(std::string S) {
  while (!S.empty() && S.back() == '\n')
    S.pop_back();
  std::string Out;
  for (StringRef Line : split(S, '\n')) {
    Line = Line.trim();
    if (Line.consume_front("warplint: "))
      Line = Line.trim();
    if (Line.empty())
      continue;
    if (!Out.empty())
      Out += " ";
    Out += Line.str();
  }
  return Out;
}

} // namespace

Expected<CommandLine> parseCommandLine(int Argc, const char **Argv) {
  // Everything after "--" is compiler flags, as for clang-tidy.
  CommandLine Cmd;
  for (int I = 0; I < Argc; ++I) {
    if (!Cmd.FixedFlags && I > 0 && StringRef(Argv[I]) == "--") {
      Cmd.FixedFlags.emplace();
      continue;
    }
    if (Cmd.FixedFlags)
      Cmd.FixedFlags->push_back(Argv[I]);
    else
      Cmd.Own.push_back(Argv[I]);
  }

  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warplint " << WARPLINT_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          Cmd.Own.size(), Cmd.Own.data(),
          "CUDA kernel linter: uncoalesced access, bank conflicts, divergence, "
          "legacy warp intrinsics, judged per target architecture\n",
          &ParseErrorStream))
    return createStringError(oneLine(ParseErrors));
  return Cmd;
}

void printError(const Twine &Msg) {
  errs() << "warplint: error: " << Msg << "\n";
}

} // namespace warplint::cli
