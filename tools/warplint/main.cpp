// warplint: the command-line front end (LibTooling), with clang-tidy's
// conventions: warplint [options] <files...> [-- <compiler flags>].
#include "checks/Registry.h"
#include "tools/common/FrontendOptions.h"
#include "Arch/ArchTable.h"
#include "Core/Check.h"
#include "Core/Config.h"
#include "Driver/Includer.h"
#include "Driver/NvccFlags.h"
#include "Driver/ResultCache.h"
#include "Driver/Runner.h"
#include "Driver/Tasks.h"
#include "Driver/Toolkit.h"
#include "Output/Fingerprint.h"
#include "Output/Fixes.h"
#include "Output/Writers.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>
#include <mutex>
#include <set>

using namespace llvm;
using namespace warplint;
using namespace warplint::frontend;

namespace {

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
    cl::desc("Compile each file that launches kernels with the toolkit's nvcc "
             "beside the parse, for the registers ptxas gives each kernel "
             "(launch-occupancy; cached); --ptxas=false uses only "
             "__launch_bounds__ and -maxrregcount"),
    cl::init(true), cl::cat(Category));
cl::opt<std::string> NvccOpt(
    "nvcc",
    cl::desc("The nvcc --ptxas runs (default: the toolkit's bin/nvcc)"),
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
cl::opt<std::string> WorkerResultOpt("internal-worker-result",
                                     cl::ReallyHidden, cl::cat(Category));
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
cl::opt<bool> PrintParsesOpt(
    "print-parses",
    cl::desc("Say on stderr how each file's targets were parsed, and why"),
    cl::Hidden, cl::cat(Category));

int Main(int Argc, const char **Argv);

void printError(const Twine &Msg) {
  errs() << "warplint: error: " << Msg << "\n";
}

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

std::string shareDirectory(const char *Argv0) {
  return shareDirectoryFor(
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&Main)));
}

// The given files that another given file #includes: a kernel file and the
// file that #includes it to launch its kernels (a.cu, and b.cu with
// `#include "a.cu"`). Such a file is reported through its includer only:
// that parse sees all of it, and the launches too (the block shapes the
// memory checks model warps with), where its own parse would judge the
// kernels with the default shape and report the same lines again with
// other numbers. Two files that include each other, or an includer whose
// parse crashed, keep the file's own results.
std::vector<bool>
includedByAnotherInput(const std::vector<FileTask> &Tasks,
                       const std::vector<FileResult> &Results) {
  std::vector<bool> Covered(Tasks.size(), false);
  if (Tasks.size() < 2)
    return Covered;
  std::vector<std::string> Real;
  for (const FileTask &T : Tasks)
    Real.push_back(realPath(T.File));
  auto Includes = [&](size_t By, size_t Of) {
    const std::vector<std::string> &Read = Results[By].Dependencies;
    // (A parse that crashed lists nothing.)
    return Real[By] != Real[Of] &&
           std::binary_search(Read.begin(), Read.end(), Real[Of]);
  };
  for (size_t Of = 0; Of < Tasks.size(); ++Of)
    for (size_t By = 0; By < Tasks.size() && !Covered[Of]; ++By)
      Covered[Of] = Includes(By, Of) && !Includes(Of, By);
  return Covered;
}

// Fragment's results from the parse of Includer, a file that #includes it:
// the findings at Fragment's lines, spelled as the user named it. Nothing
// when that parse has errors too (Fragment's own errors are then the
// better report).
std::optional<FileResult> analyseThroughIncluder(StringRef Fragment,
                                                 const FileTask &Includer,
                                                 const RunEnvironment &Env) {
  FileResult Through = runFile(Includer, Env);
  if (!Through.Sink.errors().empty())
    return std::nullopt;
  std::string Real = realPath(Fragment);
  FileResult R;
  R.Warnings = std::move(Through.Warnings);
  R.Warnings.push_back("'" + Fragment.str() +
                       "' does not compile on its own; analysed through '" +
                       Includer.File + "', which #includes it");
  for (Finding &F : Through.Sink.findings()) {
    if (realPath(absolutePath(F.Loc.File)) != Real)
      continue;
    for (FindingNote &N : F.Notes)
      if (realPath(absolutePath(N.Loc.File)) == Real)
        N.Loc.File = Fragment.str();
    F.Loc.File = Fragment.str();
    R.Sink.report(std::move(F));
  }
  return R;
}

std::vector<RuleInfo> ruleList(StringRef Share) {
  std::vector<RuleInfo> Rules;
  std::string Base = HelpBaseUrlOpt;
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  for (const CheckInfo &C : allChecks()) {
    SmallString<256> Doc(Share);
    sys::path::append(Doc, "docs", "checks", C.Id + ".md");
    auto Text = MemoryBuffer::getFile(Doc, /*IsText=*/true);
    Rules.push_back({C.Id.str(), C.ClassName.str(), C.Summary.str(),
                     Text ? (*Text)->getBuffer().str() : "",
                     Base.empty() ? "" : Base + C.Id.str() + ".md"});
  }
  return Rules;
}

// Runs Task (the Index-th) in a child process, this program again with the
// same arguments (Own: before "--", Fixed: after it, if any), killed after
// --timeout seconds. A parse cannot be stopped safely on a thread (clang has
// no cancellation, and a hung template instantiation never polls a flag);
// a process can. Complete: the child answered (not killed, not crashed
// uncontained), so the result may be cached.
FileResult runIsolated(const FileTask &Task, size_t Index, StringRef Self,
                       ArrayRef<const char *> Own,
                       const std::optional<std::vector<std::string>> &Fixed,
                       bool &Complete) {
  Complete = false;
  FileResult R;
  auto Fail = [&](const Twine &Why) {
    ToolError E;
    E.Loc.File = Task.File;
    E.Message = Why.str();
    R.Sink.reportError(std::move(E));
    return std::move(R);
  };
  SmallString<128> ResultPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("warplint-worker", "json", ResultPath))
    return Fail("cannot create a temporary file for its analysis: " +
                EC.message());
  FileRemover RemoveResult(ResultPath);
  std::vector<std::string> Storage(Own.begin() + 1, Own.end());
  Storage.push_back("--quiet");
  Storage.push_back("--internal-worker-index=" + std::to_string(Index));
  Storage.push_back("--internal-worker-result=" + std::string(ResultPath));
  if (Fixed) {
    Storage.push_back("--");
    Storage.insert(Storage.end(), Fixed->begin(), Fixed->end());
  }
  std::vector<StringRef> Args = {Self};
  Args.insert(Args.end(), Storage.begin(), Storage.end());
  // stdout to /dev/null (the child writes its result to the file); stderr
  // stays: an uncontained crash's stack dump belongs to the user.
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                          std::nullopt};
  std::string ErrMsg;
  bool Failed = false;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Self, Args, std::nullopt,
                                           Redirects, 0, &ErrMsg, &Failed);
  if (Failed)
    return Fail("cannot start a process to analyse it: " + ErrMsg);
  // Polled rather than Wait's own timeout, which is SIGALRM: one per
  // process, and -j runs several children at once.
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(TimeoutOpt.getValue());
  sys::ProcessInfo Done;
  for (;;) {
    Done = sys::Wait(PI, /*SecondsToWait=*/0, &ErrMsg);
    if (Done.Pid != 0)
      break;
    if (std::chrono::steady_clock::now() >= Deadline) {
      ::kill(PI.Pid, SIGKILL);
      sys::Wait(PI, std::nullopt, &ErrMsg);
      return Fail("analysis stopped after the --timeout of " +
                  Twine(TimeoutOpt.getValue()) + " second" +
                  (TimeoutOpt == 1 ? "" : "s") +
                  "; this file has no findings");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto Text = MemoryBuffer::getFile(ResultPath);
  std::optional<FileResult> Answer;
  if (Done.ReturnCode == 0 && Text)
    Answer = deserializeResult((*Text)->getBuffer());
  if (!Answer)
    return Fail("internal error: warplint crashed while analysing this file "
                "(" +
                (ErrMsg.empty() ? "exit code " + std::to_string(Done.ReturnCode)
                                : ErrMsg) +
                "); it has no findings (please report this)");
  Complete = llvm::none_of(Answer->Sink.errors(),
                           [](const ToolError &E) { return E.Crashed; });
  return std::move(*Answer);
}

int Main(int Argc, const char **Argv) {
  // Everything after "--" is compiler flags, as for clang-tidy.
  std::vector<const char *> Own;
  std::vector<std::string> FixedFlags;
  bool HaveFixedFlags = false;
  for (int I = 0; I < Argc; ++I) {
    if (!HaveFixedFlags && I > 0 && StringRef(Argv[I]) == "--") {
      HaveFixedFlags = true;
      continue;
    }
    if (HaveFixedFlags)
      FixedFlags.push_back(Argv[I]);
    else
      Own.push_back(Argv[I]);
  }

  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warplint " << WARPLINT_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          Own.size(), Own.data(),
          "CUDA kernel linter: uncoalesced access, bank conflicts, divergence, "
          "legacy warp intrinsics, judged per target architecture\n",
          &ParseErrorStream)) {
    printError(oneLine(ParseErrors));
    return 2;
  }

  std::string Share = shareDirectory(Argv[0]);

  // Rule tables first: every later step may need them.
  std::string ArchDir = archDataDirectory(Share);
  auto Tables = loadArchTables(ArchDir);
  if (!Tables) {
    printError(toString(Tables.takeError()));
    return 2;
  }

  std::optional<Config> ExplicitConfig;
  if (!ConfigFileOpt.empty()) {
    auto C = loadConfigFile(ConfigFileOpt);
    if (!C) {
      printError(toString(C.takeError()));
      return 2;
    }
    ExplicitConfig = std::move(*C);
  }

  std::optional<Regex> HeaderFilter;
  if (HeaderFilterOpt.getNumOccurrences()) {
    HeaderFilter.emplace(HeaderFilterOpt);
    std::string Why;
    if (!HeaderFilter->isValid(Why)) {
      printError("--header-filter='" + HeaderFilterOpt +
                 "' is not a regular expression: " + Why);
      return 2;
    }
  }

  std::optional<Baseline> Recorded;
  if (!BaselineOpt.empty()) {
    auto B = loadBaseline(BaselineOpt);
    if (!B) {
      printError(toString(B.takeError()));
      return 2;
    }
    Recorded = std::move(*B);
  }

  if (ListChecks) {
    const Config *Cfg = ExplicitConfig ? &*ExplicitConfig : nullptr;
    std::optional<Config> Found;
    if (!Cfg) {
      SmallString<256> Here;
      sys::fs::current_path(Here);
      sys::path::append(Here, "x");
      if (auto Path = findConfigFile(Here)) {
        auto C = loadConfigFile(*Path);
        if (!C) {
          printError(toString(C.takeError()));
          return 2;
        }
        Found = std::move(*C);
        Cfg = &*Found;
      }
    }
    GlobList Enabled(combineSettings(Cfg, ChecksOpt, "").ChecksText);
    outs() << "Enabled checks:\n";
    for (const CheckInfo &C : allChecks())
      if (Enabled.contains(C.Id))
        outs() << "    " << C.Id << "\n";
    outs() << "\n";
    return 0;
  }

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!BuildPath.empty()) {
    auto DB = loadCompilationDatabase(BuildPath);
    if (!DB) {
      printError(toString(DB.takeError()));
      return 2;
    }
    Database = std::move(*DB);
  }

  std::vector<std::string> Inputs(Files.begin(), Files.end());
  if (Inputs.empty() && Database)
    for (const std::string &F : Database->getAllFiles())
      if (StringRef(F).ends_with(".cu"))
        Inputs.push_back(F);
  if (Inputs.empty()) {
    printError("no input files (try: warplint file.cu --, or -p build-dir)");
    return 2;
  }

  RunEnvironment Env = runEnvironment(*Tables, Share);
  if (!Env.Toolkit.found() && !Quiet)
    errs() << "warplint: note: no CUDA toolkit found"
           << (CudaPathOpt.empty() ? "" : " at '" + CudaPathOpt + "'")
           << "; parsing with warplint's bundled minimal CUDA declarations\n";

  TaskSettings Settings;
  if (HaveFixedFlags) {
    Settings.FixedCommand = {"clang++"};
    Settings.FixedCommand->insert(Settings.FixedCommand->end(),
                                  FixedFlags.begin(), FixedFlags.end());
  }
  Settings.ExtraArgsBefore.assign(ExtraArgsBefore.begin(),
                                  ExtraArgsBefore.end());
  Settings.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Settings.Checks = ChecksOpt;
  Settings.WarningsAsErrors = WarningsAsErrorsOpt;
  Settings.Archs.assign(ArchOpt.begin(), ArchOpt.end());
  Settings.ExplicitConfig = ExplicitConfig ? &*ExplicitConfig : nullptr;
  Settings.IRLayer = IRLayerOpt;
  Settings.DumpAnalysis = DumpAnalysisOpt;
  Settings.OneParse = OneParseOpt;
  TaskBuilder Builder(*Tables, std::move(Settings));

  DiagSink All;
  std::vector<FileTask> Tasks;
  for (const std::string &File : Inputs) {
    std::string Abs = absolutePath(File);
    if (!sys::fs::exists(Abs) || sys::fs::is_directory(Abs)) {
      ToolError E;
      E.Loc.File = File;
      E.Message = sys::fs::is_directory(Abs)
                      ? "is a directory, not a source file"
                      : "cannot read: no such file";
      All.reportError(std::move(E));
      continue;
    }
    // Readable? (Opened, not read: the parse reads it.)
    Expected<sys::fs::file_t> FD = sys::fs::openNativeFileForRead(Abs);
    if (!FD) {
      ToolError E;
      E.Loc.File = File;
      E.Message = "cannot read: " + toString(FD.takeError());
      All.reportError(std::move(E));
      continue;
    }
    sys::fs::closeFile(*FD);

    auto T = Builder.build(File, Abs, Database.get());
    if (!T) {
      printError(toString(T.takeError()));
      return 2;
    }
    Tasks.push_back(std::move(*T));
  }

  // nvcc's own options that mean nothing to clang: said once per run each,
  // whatever number of files carry them.
  if (!Quiet) {
    std::set<std::string> Ignored;
    for (const FileTask &T : Tasks)
      Ignored.insert(T.Flags.IgnoredNvcc.begin(), T.Flags.IgnoredNvcc.end());
    for (const std::string &Flag : Ignored)
      errs() << "warplint: warning: nvcc option '" << Flag
             << "' has no clang counterpart; ignored\n";
  }

  std::unique_ptr<ResultCache> Cache;
  std::string CacheDir = CacheDirOpt;
  if (CacheDir.empty())
    if (auto EnvDir = sys::Process::GetEnv("WARPLINT_CACHE_DIR"))
      CacheDir = *EnvDir;
  if (!CacheDir.empty() && !DumpAnalysisOpt) {
    auto C = ResultCache::open(
        CacheDir,
        buildIdentity(sys::fs::getMainExecutable(
                          Argv[0], reinterpret_cast<void *>(&Main)),
                      ArchDir));
    if (!C) {
      printError(toString(C.takeError()));
      return 2;
    }
    Cache = std::move(*C);
    for (FileTask &T : Tasks)
      T.RecordDependencies = true;
  }

  // Registers per kernel from ptxas, its answers cached beside the results
  // or in the user's cache directory.
  std::string Nvcc = NvccOpt, NoPtxas;
  if (Nvcc.empty() && Env.Toolkit.found()) {
    SmallString<256> P(Env.Toolkit.Path);
    sys::path::append(P, "bin", "nvcc");
    Nvcc = std::string(P);
  }
  if (!PtxasOpt)
    NoPtxas = "--ptxas=false";
  else if (Nvcc.empty())
    NoPtxas = "no CUDA toolkit found";
  else if (!sys::fs::can_execute(Nvcc))
    NoPtxas = "cannot run '" + Nvcc + "'";
  std::string ResourceCache;
  SmallString<256> CacheBase;
  if (!CacheDir.empty())
    CacheBase = CacheDir;
  else if (sys::path::cache_directory(CacheBase))
    sys::path::append(CacheBase, "warplint");
  else
    CacheBase.clear();
  if (!CacheBase.empty()) {
    sys::path::append(CacheBase, "ptxas");
    ResourceCache = std::string(CacheBase);
  }
  // Which given file #includes which (below): the files each parse read.
  if (Tasks.size() > 1)
    for (FileTask &T : Tasks)
      T.RecordDependencies = true;
  for (FileTask &T : Tasks) {
    if (NoPtxas.empty())
      T.Nvcc = Nvcc;
    T.NoPtxas = NoPtxas;
    T.ResourceCacheDir = ResourceCache;
  }

  if (!WorkerResultOpt.empty()) { // a --timeout child: one file, no report
    if (WorkerIndexOpt >= Tasks.size())
      return 2;
    FileResult R = runFile(Tasks[WorkerIndexOpt], Env);
    if (Error E = writeToOutput(WorkerResultOpt, [&](raw_ostream &OS) {
          OS << serializeResult(R);
          return Error::success();
        })) {
      printError(WorkerResultOpt + ": " + toString(std::move(E)));
      return 2;
    }
    // After a contained crash, LLVM's shutdown would touch what it left.
    sys::Process::Exit(0, /*NoCleanup=*/true);
  }

  std::string Self =
      sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&Main));
  std::optional<std::vector<std::string>> Fixed;
  if (HaveFixedFlags)
    Fixed = FixedFlags;
  // One file's analysis: in this process, or with --timeout in a child.
  auto Analyse = [&](size_t I, bool &Complete) {
    Complete = true;
    if (!TimeoutOpt)
      return runFile(Tasks[I], Env);
    return runIsolated(Tasks[I], I, Self, Own, Fixed, Complete);
  };

  std::vector<FileResult> Results(Tasks.size());
  // Progress on a terminal, as run-clang-tidy prints it; nothing in a log.
  bool Progress = !Quiet && Tasks.size() > 1 &&
                  sys::Process::StandardErrIsDisplayed();
  std::mutex ProgressLock;
  size_t Done = 0;
  auto Run = [&](size_t I) {
    if (Cache) {
      std::string Key = Cache->keyOf(Tasks[I], Env);
      if (auto Hit = Cache->lookup(Key)) {
        Results[I] = std::move(*Hit);
      } else {
        bool Complete;
        Results[I] = Analyse(I, Complete);
        if (Complete)
          Cache->store(Key, Results[I]);
      }
    } else {
      bool Complete;
      Results[I] = Analyse(I, Complete);
    }
    if (!Progress)
      return;
    std::lock_guard<std::mutex> Hold(ProgressLock);
    errs() << "[" << ++Done << "/" << Tasks.size() << "] " << Tasks[I].File
           << "\n";
  };
  if (Jobs <= 1 || Tasks.size() <= 1) {
    for (size_t I = 0; I < Tasks.size(); ++I)
      Run(I);
  } else {
    // Largest files first (their size stands for their cost), so that one
    // big file started last does not leave the other workers idle at the
    // end; the output keeps the order of the command line.
    std::vector<std::pair<uint64_t, size_t>> Order;
    for (size_t I = 0; I < Tasks.size(); ++I) {
      uint64_t Size = 0;
      (void)sys::fs::file_size(Tasks[I].File, Size);
      Order.push_back({Size, I});
    }
    llvm::stable_sort(Order, [](const auto &A, const auto &B) {
      return A.first > B.first;
    });
    DefaultThreadPool Pool(hardware_concurrency(Jobs));
    for (auto [Size, I] : Order)
      Pool.async([&, I = I] { Run(I); });
    Pool.wait();
  }
  // A .cu fragment that does not compile on its own, and that no other given
  // file covers: analysed through the file of its directory that #includes
  // it, if that one compiles.
  for (size_t I = 0; I < Tasks.size(); ++I) {
    if (Results[I].Sink.errors().empty() ||
        sys::path::extension(Tasks[I].File) != ".cu")
      continue;
    std::optional<std::string> Includer =
        findIncluder(absolutePath(Tasks[I].File));
    if (!Includer || llvm::any_of(Tasks, [&](const FileTask &T) {
          return realPath(T.File) == realPath(*Includer);
        }))
      continue;
    auto T = Builder.build(*Includer, *Includer, Database.get());
    if (!T) {
      consumeError(T.takeError());
      continue;
    }
    T->Nvcc = Tasks[I].Nvcc;
    T->NoPtxas = Tasks[I].NoPtxas;
    T->ResourceCacheDir = Tasks[I].ResourceCacheDir;
    if (auto Through = analyseThroughIncluder(Tasks[I].File, *T, Env))
      Results[I] = std::move(*Through);
  }
  std::vector<bool> Covered = includedByAnotherInput(Tasks, Results);
  std::set<std::string> CoveredFiles;
  for (size_t I = 0; I < Tasks.size(); ++I)
    if (Covered[I])
      CoveredFiles.insert(realPath(Tasks[I].File));
  // Output in input order, whatever order the jobs finished in. A header's
  // findings are shown once, from the first file that includes it.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string,
                      std::string, std::string>>
      Shown;
  for (size_t I = 0; I < Results.size(); ++I) {
    FileResult &R = Results[I];
    if (!Quiet)
      for (const std::string &W : R.Warnings)
        errs() << "warplint: warning: " << W << "\n";
    if (PrintParsesOpt && !R.Parses.empty())
      errs() << "warplint: " << Tasks[I].File << ": " << R.Parses << "\n";
    if (Covered[I])
      continue; // reported through the file that includes it
    std::string Main = absolutePath(Tasks[I].File);
    auto &Found = R.Sink.findings();
    Found.erase(
        std::remove_if(Found.begin(), Found.end(),
                       [&](const Finding &F) {
                         std::string File = absolutePath(F.Loc.File);
                         if (File != Main && HeaderFilter &&
                             !HeaderFilter->match(File) &&
                             (CoveredFiles.empty() ||
                              !CoveredFiles.count(realPath(File))))
                           return true;
                         return !Shown
                                     .insert({File, F.Loc.Line, F.Loc.Column,
                                              F.Check, F.Message,
                                              F.archList()})
                                     .second;
                       }),
        Found.end());
    std::stable_sort(Found.begin(), Found.end(),
                     [](const Finding &A, const Finding &B) {
                       return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column) <
                              std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column);
                     });
    All.append(std::move(R.Sink));
  }

  if (DumpAnalysisOpt) {
    for (size_t I = 0; I < Tasks.size(); ++I)
      outs() << "file " << Tasks[I].File << "\n" << Results[I].Dump;
    for (const ToolError &E : All.errors())
      errs() << "warplint: error: " << E.Loc.File << ":" << E.Loc.Line << ":"
             << E.Loc.Column << ": " << E.Message << "\n";
    return All.errors().empty() ? 0 : 2;
  }

  // Fingerprints over every finding, before a baseline leaves some out, so
  // that each keeps the one it was recorded with.
  std::string Root = SourceRootOpt.empty() ? absolutePath(".") : absolutePath(SourceRootOpt);
  SourceLines Src;
  std::vector<std::string> Prints = fingerprints(All.findings(), Root, Src);
  if (!WriteBaselineOpt.empty()) {
    if (Error E = writeBaseline(WriteBaselineOpt, All.findings(), Prints, Root)) {
      printError(WriteBaselineOpt + ": " + toString(std::move(E)));
      return 2;
    }
    if (!Quiet)
      errs() << "warplint: recorded " << All.findings().size() << " finding"
             << (All.findings().size() == 1 ? "" : "s") << " in "
             << WriteBaselineOpt << "\n";
  }
  std::vector<Finding> Kept;
  std::vector<std::string> KeptPrints;
  unsigned Baselined = 0;
  for (size_t I = 0; I < All.findings().size(); ++I) {
    if (Recorded && Recorded->Fingerprints.count(Prints[I])) {
      ++Baselined;
      continue;
    }
    Kept.push_back(All.findings()[I]);
    KeptPrints.push_back(Prints[I]);
  }

  // Only SARIF lists the rules (with their doc pages, read from disk).
  std::vector<RuleInfo> Rules;
  if (FormatOpt == OutputFormat::Sarif)
    Rules = ruleList(Share);
  Report Out{Kept, All.errors(), Rules, KeptPrints, Root, SarifCategoryOpt};
  writeReport(FormatOpt, Out, outs());
  outs().flush();
  if (Baselined && !Quiet)
    errs() << "warplint: " << Baselined << " finding"
           << (Baselined == 1 ? "" : "s") << " left out: recorded in "
           << BaselineOpt << "\n";

  unsigned Errors = 0, Warnings = 0;
  for (const Finding &F : Kept) // notes are advice: counted as clang does
    if (F.effectiveLevel() != Severity::Note)
      (F.effectiveLevel() == Severity::Error ? Errors : Warnings) += 1;

  // Fixes refused (overlapping, or their file changed on disk): each named,
  // and the run fails (exit 2) though the other files' fixes are made.
  std::vector<std::string> Refused;
  if (!ExportFixes.empty())
    if (Error E = exportFixes(Kept,
                              Inputs.empty() ? "" : absolutePath(Inputs.front()),
                              ExportFixes, Refused)) {
      printError(ExportFixes + ": " + toString(std::move(E)));
      return 2;
    }

  if (FixOpt) {
    if (!All.errors().empty()) {
      errs() << "warplint: found compiler errors; fixes have NOT been "
                "applied\n";
    } else {
      FixSummary Summary = applyFixes(Kept);
      Refused.insert(Refused.end(), Summary.Refused.begin(),
                     Summary.Refused.end());
      if (!Quiet)
        errs() << "warplint: applied " << Summary.Applied << " fix"
               << (Summary.Applied == 1 ? "" : "es") << " in "
               << Summary.Files << " file" << (Summary.Files == 1 ? "" : "s")
               << "\n";
    }
  }
  for (const std::string &R : Refused)
    printError(R);
  if (!Refused.empty() && All.errors().empty())
    return 2;

  if (!All.errors().empty()) {
    bool Crashed = llvm::any_of(All.errors(),
                                [](const ToolError &E) { return E.Crashed; });
    if (!Quiet || FormatOpt != OutputFormat::Text) {
      const ToolError &First = All.errors().front();
      std::string Where = First.Loc.File;
      if (First.Loc.Line)
        Where += ":" + std::to_string(First.Loc.Line) + ":" +
                 std::to_string(First.Loc.Column);
      errs() << "warplint: error: " << Where << ": " << First.Message;
      if (All.errors().size() > 1)
        errs() << " (and " << All.errors().size() - 1 << " more errors)";
      errs() << "\n";
    }
    if (Crashed) {
      // The crashed parse left state that LLVM's shutdown would touch.
      outs().flush();
      errs().flush();
      sys::Process::Exit(2, /*NoCleanup=*/true);
    }
    return 2;
  }
  if (!Quiet && FormatOpt == OutputFormat::Text && (Errors || Warnings))
    errs() << Warnings << " warning" << (Warnings == 1 ? "" : "s") << " and "
           << Errors << " error" << (Errors == 1 ? "" : "s") << " generated.\n";
  if (!WriteBaselineOpt.empty())
    return 0; // recording is not gating
  return Errors ? 1 : 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // A crash while analysing one file becomes an error for that file.
  CrashRecoveryContext::Enable();
  setBugReportMsg("warplint crashed: please report it with the file that "
                  "caused it and this stack dump.\n");
  return Main(Argc, Argv);
}
