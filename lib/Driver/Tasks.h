// What one file is analysed with: its compile command (fixed flags, a compile
// database, or none), .warplint.yaml and the front end's own settings,
// combined into a FileTask. Shared by the CLI and the language server, so that
// a file gets the same checks, flags and targets in both.
#pragma once
#include "Core/Config.h"
#include "Driver/IRLayer.h"
#include "Driver/Runner.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <mutex>
#include <optional>

namespace warplint {

// What the front end adds to every file.
struct TaskSettings {
  // Flags given after "--" (program name first): they win over any database.
  std::optional<std::vector<std::string>> FixedCommand;
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  std::string Checks, WarningsAsErrors;   // globs, applied after the config's
  std::vector<std::string> Archs;         // --arch: wins over everything
  const Config *ExplicitConfig = nullptr; // --config-file
  IRLayerMode IRLayer = IRLayerMode::On;
  bool DumpAnalysis = false;
  bool OneParse = true; // FileTask::OneParse
};

class TaskBuilder {
public:
  TaskBuilder(const ArchTable &Tables, TaskSettings S)
      : Tables(Tables), S(std::move(S)) {}

  // The task for File (as the user named it; Abs its absolute path), its
  // compile command from Database when there is no fixed one. Fails when
  // the nearest .warplint.yaml does not parse or names an unknown target.
  llvm::Expected<FileTask>
  build(llvm::StringRef File, llvm::StringRef Abs,
        const clang::tooling::CompilationDatabase *Database);

  // The config that applies to Abs (nullptr: none), read once per file.
  llvm::Expected<const Config *> configFor(llvm::StringRef Abs);

private:
  const ArchTable &Tables;
  TaskSettings S;
  std::map<std::string, Config> Configs;
};

// -p: a build directory with compile_commands.json, or the file itself.
// Headers and files not in it borrow a neighbour's command.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildPath);

// The compile database of a file found as clangd finds it: in the file's
// directory or the nearest parent, compile_commands.json or
// compile_flags.txt, directly or in a build/ subdirectory. Each directory is
// looked at once; thread-safe.
class CompilationDatabaseFinder {
public:
  // Dir non-empty: that directory only (clangd's --compile-commands-dir).
  explicit CompilationDatabaseFinder(std::string Dir = "")
      : FixedDir(std::move(Dir)) {}
  // nullptr: none found (the file is analysed with no flags).
  const clang::tooling::CompilationDatabase *find(llvm::StringRef AbsFile);
  // Forget what was found (a database was written or removed).
  void clear();

private:
  const clang::tooling::CompilationDatabase *inDirectory(llvm::StringRef Dir);
  std::string FixedDir;
  std::mutex Lock;
  // Per directory: its database, or nullptr when it has none.
  llvm::StringMap<std::unique_ptr<clang::tooling::CompilationDatabase>> ByDir;
};

} // namespace warplint
