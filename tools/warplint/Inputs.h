// From the command line to the tasks (Inputs.cpp): what the run reads before
// it analyses anything, the files it analyses, and how each one is set up.
#pragma once
#include "Core/Config.h"
#include "Core/DiagSink.h"
#include "Driver/ResultCache.h"
#include "Driver/Runner.h"
#include "Driver/Tasks.h"
#include "Options.h"
#include "Output/Fingerprint.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint::cli {

// What the options name for the whole run, read before any file: the
// --config-file, the --header-filter and the --baseline.
struct RunInputs {
  std::optional<Config> ExplicitConfig;
  std::optional<llvm::Regex> HeaderFilter;
  std::optional<Baseline> Recorded;
};
llvm::Expected<RunInputs> readRunInputs();

// The files to analyse: those given, else the .cu files of the -p compile
// database; and that database, if any.
struct InputFiles {
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::vector<std::string> Files;
};
llvm::Expected<InputFiles> findInputFiles();

// Notes on stderr that no CUDA toolkit was found (not with --quiet).
void noteMissingToolkit(const RunEnvironment &Env);

// What the options add to every file's task.
TaskSettings taskSettings(const CommandLine &Cmd,
                          const std::optional<Config> &ExplicitConfig);

// A task for each input, its compile command from the database where there
// is no fixed one; an input that cannot be read gets an error in All
// instead. Fails when a file's config is unusable.
llvm::Expected<std::vector<FileTask>>
buildTasks(const InputFiles &Inputs, TaskBuilder &Builder, DiagSink &All);

// Warns once per run of each nvcc option the tasks' commands carry that
// means nothing to clang (not with --quiet).
void warnIgnoredNvccOptions(const std::vector<FileTask> &Tasks);

// --cache-dir, else $WARPLINT_CACHE_DIR; empty: none.
std::string cacheDirectory();

// The result cache (null: none, or --dump-analysis); its tasks record the
// files their parses read. Self: this program, ArchDir: the rule tables, for
// the cache's identity of the build.
llvm::Expected<std::unique_ptr<ResultCache>>
openResultCache(std::vector<FileTask> &Tasks, llvm::StringRef Self,
                llvm::StringRef ArchDir);

// How each task gets ptxas's registers per kernel (--ptxas, --nvcc, the
// toolkit's nvcc), and where their answers are cached.
void setUpPtxas(std::vector<FileTask> &Tasks, const RunEnvironment &Env);

} // namespace warplint::cli
