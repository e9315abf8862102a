// warplint: the command-line front end (LibTooling), with clang-tidy's
// conventions: warplint [options] <files...> [-- <compiler flags>].
// Main is the run's table of contents; each step lives in this directory:
// Options (the command line), EffectiveConfig (--list-checks and
// --dump-config), Inputs (the files and their tasks), Schedule and Workers
// (the analyses, -j and --timeout), Merge (one report from many files) and
// Report (the output).
#include "Arch/ArchTable.h"
#include "EffectiveConfig.h"
#include "Inputs.h"
#include "Merge.h"
#include "Options.h"
#include "Report.h"
#include "Schedule.h"
#include "Support/FatalErrors.h"
#include "Workers.h"
#include "tools/common/FrontendOptions.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"

using namespace llvm;
using namespace warplint;
using namespace warplint::cli;
using namespace warplint::frontend;

namespace {

// An error that ends the run before any file is analysed: said, exit 2.
int fail(Error E) {
  printError(toString(std::move(E)));
  return 2;
}

int exitCode(Error E) { return E ? fail(std::move(E)) : 0; }

int Main(int Argc, const char **Argv) {
  Expected<CommandLine> Cmd = parseCommandLine(Argc, Argv);
  if (!Cmd)
    return fail(Cmd.takeError());
  std::string Self =
      sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&Main));
  std::string Share = shareDirectoryFor(Self);

  // Rule tables first: every later step may need them.
  std::string ArchDir = archDataDirectory(Share);
  Expected<ArchTable> Tables = loadArchTables(ArchDir);
  if (!Tables)
    return fail(Tables.takeError());
  Expected<RunInputs> Run = readRunInputs();
  if (!Run)
    return fail(Run.takeError());
  if (ListChecks)
    return exitCode(listChecks(Run->ExplicitConfig));
  if (DumpConfigOpt)
    return exitCode(dumpConfig(Run->ExplicitConfig, *Tables));

  Expected<InputFiles> Inputs = findInputFiles();
  if (!Inputs)
    return fail(Inputs.takeError());
  RunEnvironment Env = runEnvironment(*Tables, Share);
  noteMissingToolkit(Env);
  TaskBuilder Builder(*Tables, taskSettings(*Cmd, Run->ExplicitConfig));
  DiagSink All;
  Expected<std::vector<FileTask>> Tasks = buildTasks(*Inputs, Builder, All);
  if (!Tasks)
    return fail(Tasks.takeError());
  warnIgnoredNvccOptions(*Tasks);
  Expected<std::unique_ptr<ResultCache>> Cache =
      openResultCache(*Tasks, Self, ArchDir);
  if (!Cache)
    return fail(Cache.takeError());
  setUpPtxas(*Tasks, Env);
  recordIncludes(*Tasks);
  if (!WorkerResultOpt.empty()) // a --timeout child: one file, no report
    return runAsWorker(*Tasks, Env);

  std::vector<FileResult> Results =
      analyseAll(*Tasks, Env, Cache->get(), Self, *Cmd);
  analyseFragmentsThroughIncluders(*Tasks, Results, Builder,
                                   Inputs->Database.get(), Env);
  mergeResults(*Tasks, Results, Run->HeaderFilter, All);
  if (DumpAnalysisOpt)
    return printDumps(*Tasks, Results, All);
  return report(All, Run->Recorded, Share, Inputs->Files);
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // A crash while analysing one file becomes an error for that file.
  CrashRecoveryContext::Enable();
  // An LLVM fatal error inside a file's analysis stays that file's.
  installFatalErrorRecorder();
  setBugReportMsg("warplint crashed: please report it with the file that "
                  "caused it and this stack dump.\n");
  return Main(Argc, Argv);
}
