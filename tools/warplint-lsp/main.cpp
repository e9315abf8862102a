// warplint-lsp: warplint as a language server (LSP 3.17 over stdio), for
// editors. Findings of the unsaved buffer as diagnostics, fix-its and NOLINT
// as code actions. See docs/integration/editors.md.
#include "Arch/ArchTable.h"
#include "Driver/Toolkit.h"
#include "Server.h"
#include "Support/FatalErrors.h"
#include "tools/common/FrontendOptions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace warplint;
using namespace warplint::frontend;

namespace {

cl::opt<bool> AllTargetsOpt(
    "all-targets",
    cl::desc("Judge for every target of the file, one parse each (default: "
             "the first target only)"),
    cl::cat(Category));
cl::opt<std::string> CompileCommandsDirOpt(
    "compile-commands-dir",
    cl::desc("Directory of compile_commands.json (default: searched from each "
             "file's directory upwards, as clangd does)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> HelpBaseUrlOpt(
    "help-base-url",
    cl::desc("URL of the directory of check docs, each diagnostic's link is "
             "<url>/<check-id>.md (default: the installed docs, file://)"),
    cl::value_desc("url"), cl::cat(Category));
cl::opt<unsigned> DebounceOpt(
    "debounce-ms",
    cl::desc("Milliseconds without edits before a buffer is analysed"),
    cl::init(200), cl::cat(Category));
cl::opt<bool> FocusOpt(
    "focus",
    cl::desc("After an edit inside one function, first parse only the bodies "
             "it may affect, then the whole buffer once it holds still "
             "(--focus=false: the whole buffer every time)"),
    cl::init(true), cl::cat(Category));
cl::opt<unsigned> FullAnalysisDelayOpt(
    "full-analysis-delay-ms",
    cl::desc("Milliseconds without edits before a focused pass is followed "
             "by a full analysis"),
    cl::init(500), cl::cat(Category));
cl::opt<bool> PreambleOpt(
    "preamble",
    cl::desc("Keep each buffer's #include region precompiled between edits "
             "(--preamble=false: parse it all every time)"),
    cl::init(true), cl::cat(Category));
cl::opt<lsp::LogLevel>
    LogOpt("log", cl::desc("What the log on stderr says"),
           cl::init(lsp::LogLevel::Info),
           cl::values(clEnumValN(lsp::LogLevel::Error, "error", "errors only"),
                      clEnumValN(lsp::LogLevel::Info, "info", "each analysis"),
                      clEnumValN(lsp::LogLevel::Verbose, "verbose",
                                 "every message too")),
           cl::cat(Category));

int Main(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warplint-lsp " << WARPLINT_VERSION << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  cl::ParseCommandLineOptions(
      Argc, Argv, "warplint language server (LSP over stdin/stdout)\n");
  lsp::Logger Log(LogOpt);

  std::string Share = shareDirectoryFor(
      sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&Main)));
  auto Tables = loadArchTables(archDataDirectory(Share));
  if (!Tables) {
    Log.error(toString(Tables.takeError()));
    return 2;
  }

  lsp::ServerOptions Opts;
  Opts.Env = runEnvironment(*Tables, Share);
  if (!Opts.Env.Toolkit.found())
    Log.info("no CUDA toolkit found; parsing with warplint's bundled minimal "
             "CUDA declarations");
  Opts.Settings.Checks = ChecksOpt;
  Opts.Settings.Archs.assign(ArchOpt.begin(), ArchOpt.end());
  Opts.Settings.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Opts.Settings.ExtraArgsBefore.assign(ExtraArgsBefore.begin(),
                                       ExtraArgsBefore.end());
  Opts.CompileCommandsDir = CompileCommandsDirOpt;
  Opts.AllTargets = AllTargetsOpt;
  Opts.Debounce = std::chrono::milliseconds(DebounceOpt);
  Opts.HelpBaseUrl = HelpBaseUrlOpt;
  Opts.Preamble = PreambleOpt;
  Opts.Focus = FocusOpt;
  Opts.FullAnalysisDelay = std::chrono::milliseconds(FullAnalysisDelayOpt);
  if (Opts.HelpBaseUrl.empty()) {
    SmallString<256> Docs(Share);
    sys::path::append(Docs, "docs", "checks");
    Opts.HelpBaseUrl = lsp::pathToUri(Docs);
  }
  if (Opts.HelpBaseUrl.back() != '/')
    Opts.HelpBaseUrl += '/';

  lsp::Transport T(stdin, stdout, Log);
  int Status;
  bool Crashed;
  {
    lsp::Server S(T, Log, std::move(Opts));
    Status = S.run();
    Crashed = S.crashed();
  }
  if (Crashed) {
    // A contained crash left a parse's state that LLVM's shutdown would
    // touch.
    std::fflush(stdout);
    errs().flush();
    sys::Process::Exit(Status, /*NoCleanup=*/true);
  }
  return Status;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // A crash while analysing a buffer becomes an error diagnostic for it.
  CrashRecoveryContext::Enable();
  // An LLVM fatal error inside a file's analysis stays that file's.
  installFatalErrorRecorder();
  setBugReportMsg("warplint-lsp crashed: please report it with the file that "
                  "caused it and this stack dump.\n");
  return Main(Argc, Argv);
}
