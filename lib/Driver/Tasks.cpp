#include "Driver/Tasks.h"
#include "Driver/BuildObject.h"
#include "checks/Registry.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;

namespace warplint {

Expected<const Config *> TaskBuilder::configFor(StringRef Abs) {
  if (S.ExplicitConfig)
    return S.ExplicitConfig;
  std::optional<std::string> Path = findConfigFile(Abs);
  if (!Path)
    return nullptr;
  auto It = Configs.find(*Path);
  if (It != Configs.end())
    return &It->second;
  auto C = loadConfigFile(*Path);
  if (!C)
    return C.takeError();
  return &Configs.emplace(*Path, std::move(*C)).first->second;
}

Expected<FileTask>
TaskBuilder::build(StringRef File, StringRef Abs,
                   const clang::tooling::CompilationDatabase *Database) {
  FileTask T;
  T.File = File.str();
  std::vector<std::string> Command;
  if (S.FixedCommand) {
    Command = *S.FixedCommand;
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    T.Directory = std::string(Cwd);
  } else if (Database) {
    auto Commands = Database->getCompileCommands(Abs);
    // A CUDA file the database does not list borrows only a CUDA
    // neighbour's flags: a C++ file's (a precompiled header, host-only
    // defines) would make its parse another program's.
    StringRef From;
    if (!Commands.empty())
      From = Commands.front().Heuristic;
    if (isCudaSource(File) && From.consume_front("inferred from ") &&
        !isCudaSource(From))
      Commands.clear();
    if (!Commands.empty()) {
      Command = Commands.front().CommandLine;
      T.Directory = Commands.front().Directory;
      // The file the build writes, for the registers it compiled; not for
      // a command borrowed from a neighbour.
      if (Commands.front().Heuristic.empty())
        T.BuildOutput = Commands.front().Output.empty()
                            ? buildOutputOf(Command, Abs, T.Directory)
                            : buildOutputOf({Command.front(), "-o",
                                             Commands.front().Output},
                                            Abs, T.Directory);
    }
  }
  if (Command.empty())
    Command = {"clang++"};
  T.Flags = translateCommand(Command, Abs, T.Directory);
  // As clang-tidy: around the compile command's own flags.
  T.Flags.Args.insert(T.Flags.Args.begin(), S.ExtraArgsBefore.begin(),
                      S.ExtraArgsBefore.end());
  T.Flags.Args.insert(T.Flags.Args.end(), S.ExtraArgs.begin(),
                      S.ExtraArgs.end());
  dropUnknownDriverFlags(T.Flags);
  T.Flags.IsCuda |= isCudaSource(File);

  auto Cfg = configFor(Abs);
  if (!Cfg)
    return Cfg.takeError();
  EffectiveSettings E = combineSettings(*Cfg, S.Checks, S.WarningsAsErrors);
  T.Checks = GlobList(E.ChecksText);
  bool IR = S.IRLayer != IRLayerMode::Off;
  std::vector<std::string> Barriers =
      enabledNeeding(T.Checks, needs::IRBarriers);
  if (IR && !Barriers.empty())
    T.IRBarrierCheck = Barriers.front();
  T.IRLayer = !T.IRBarrierCheck.empty() ||
              (IR && !enabledNeeding(T.Checks, needs::OptimisedView).empty());
  T.ResourceUsage = !enabledNeeding(T.Checks, needs::ResourceUsage).empty();
  if (S.IRLayer == IRLayerMode::Only) {
    // The IR layer alone: the AST side of the checks it reports for is off.
    std::string Text = E.ChecksText;
    for (const std::string &Id : Barriers)
      Text += ",-" + Id;
    T.Checks = GlobList(Text);
  }
  T.WarningsAsErrors = GlobList(E.WarningsAsErrorsText);
  T.Options = E.CheckOptions;
  T.DumpAnalysis = S.DumpAnalysis;
  T.OneParse = S.OneParse;

  std::vector<std::string> ArchNames = S.Archs;
  if (ArchNames.empty())
    ArchNames = T.Flags.Archs;
  if (ArchNames.empty())
    ArchNames = E.ConfigArchs;
  if (ArchNames.empty())
    ArchNames = {"sm_80"};
  for (const std::string &Name : ArchNames) {
    const ArchInfo *A = Tables.find(Name);
    if (!A)
      return createStringError(
          "unknown architecture '" + Name + "' (" +
          (*Cfg && ArchNames == E.ConfigArchs ? (*Cfg)->Path
                                              : "compile command") +
          " for " + File.str() + "); known: " + Tables.knownNames());
    if (std::find(T.Archs.begin(), T.Archs.end(), A) == T.Archs.end())
      T.Archs.push_back(A);
  }
  return T;
}

Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompilationDatabase(StringRef BuildPath) {
  using clang::tooling::JSONCommandLineSyntax;
  using clang::tooling::JSONCompilationDatabase;
  SmallString<256> Json(BuildPath);
  if (sys::fs::is_directory(BuildPath)) {
    sys::path::append(Json, "compile_commands.json");
    if (!sys::fs::exists(Json))
      return createStringError(BuildPath +
                               ": no compile_commands.json in this directory");
  }
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database =
      JSONCompilationDatabase::loadFromFile(Json, Err,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return createStringError(Twine(Json) + ": " + Err);
  // Headers and files not in the database borrow a neighbour's flags.
  return clang::tooling::inferMissingCompileCommands(std::move(Database));
}

const clang::tooling::CompilationDatabase *
CompilationDatabaseFinder::inDirectory(StringRef Dir) {
  auto [It, New] = ByDir.try_emplace(Dir);
  if (!New)
    return It->second.get();
  // compile_commands.json or compile_flags.txt, through Clang's own plugins.
  for (StringRef Sub : {"", "build"}) {
    SmallString<256> Where(Dir);
    if (!Sub.empty())
      sys::path::append(Where, Sub);
    std::string Err;
    if (auto DB = clang::tooling::CompilationDatabase::loadFromDirectory(Where,
                                                                         Err)) {
      It->second = clang::tooling::inferMissingCompileCommands(std::move(DB));
      break;
    }
  }
  return It->second.get();
}

const clang::tooling::CompilationDatabase *
CompilationDatabaseFinder::find(StringRef AbsFile) {
  std::lock_guard<std::mutex> Hold(Lock);
  if (!FixedDir.empty())
    return inDirectory(FixedDir);
  for (StringRef Dir = sys::path::parent_path(AbsFile); !Dir.empty();
       Dir = sys::path::parent_path(Dir))
    if (const auto *DB = inDirectory(Dir))
      return DB;
  return nullptr;
}

void CompilationDatabaseFinder::clear() {
  std::lock_guard<std::mutex> Hold(Lock);
  ByDir.clear();
}

} // namespace warplint
