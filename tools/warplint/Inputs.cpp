// From the command line to the tasks: the run's config, header filter and
// baseline, the input files, and each file's task with its cache and ptxas.
#include "Inputs.h"
#include "Support/Paths.h"
#include "tools/common/FrontendOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;
using namespace warplint::frontend;

namespace warplint::cli {

Expected<RunInputs> readRunInputs() {
  RunInputs In;
  if (!ConfigFileOpt.empty()) {
    auto C = loadConfigFile(ConfigFileOpt);
    if (!C)
      return C.takeError();
    In.ExplicitConfig = std::move(*C);
  }

  if (HeaderFilterOpt.getNumOccurrences()) {
    In.HeaderFilter.emplace(HeaderFilterOpt);
    std::string Why;
    if (!In.HeaderFilter->isValid(Why))
      return createStringError("--header-filter='" + HeaderFilterOpt +
                               "' is not a regular expression: " + Why);
  }

  if (!BaselineOpt.empty()) {
    auto B = loadBaseline(BaselineOpt);
    if (!B)
      return B.takeError();
    In.Recorded = std::move(*B);
  }
  return In;
}

Expected<InputFiles> findInputFiles() {
  InputFiles In;
  if (!BuildPath.empty()) {
    auto DB = loadCompilationDatabase(BuildPath);
    if (!DB)
      return DB.takeError();
    In.Database = std::move(*DB);
  }

  In.Files.assign(Files.begin(), Files.end());
  if (In.Files.empty() && In.Database)
    for (const std::string &F : In.Database->getAllFiles())
      if (StringRef(F).ends_with(".cu"))
        In.Files.push_back(F);
  if (In.Files.empty())
    return createStringError(
        "no input files (try: warplint file.cu --, or -p build-dir)");
  return In;
}

void noteMissingToolkit(const RunEnvironment &Env) {
  if (!Env.Toolkit.found() && !Quiet)
    errs() << "warplint: note: no CUDA toolkit found"
           << (CudaPathOpt.empty() ? "" : " at '" + CudaPathOpt + "'")
           << "; parsing with warplint's bundled minimal CUDA declarations\n";
}

TaskSettings taskSettings(const CommandLine &Cmd,
                          const std::optional<Config> &ExplicitConfig) {
  TaskSettings Settings;
  if (Cmd.FixedFlags) {
    Settings.FixedCommand = {"clang++"};
    Settings.FixedCommand->insert(Settings.FixedCommand->end(),
                                  Cmd.FixedFlags->begin(),
                                  Cmd.FixedFlags->end());
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
  return Settings;
}

Expected<std::vector<FileTask>>
buildTasks(const InputFiles &Inputs, TaskBuilder &Builder, DiagSink &All) {
  std::vector<FileTask> Tasks;
  for (const std::string &File : Inputs.Files) {
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

    auto T = Builder.build(File, Abs, Inputs.Database.get());
    if (!T)
      return T.takeError();
    Tasks.push_back(std::move(*T));
  }
  return Tasks;
}

void warnIgnoredNvccOptions(const std::vector<FileTask> &Tasks) {
  if (Quiet)
    return;
  std::set<std::string> Ignored;
  for (const FileTask &T : Tasks)
    Ignored.insert(T.Flags.IgnoredNvcc.begin(), T.Flags.IgnoredNvcc.end());
  for (const std::string &Flag : Ignored)
    errs() << "warplint: warning: nvcc option '" << Flag
           << "' has no clang counterpart; ignored\n";
}

std::string cacheDirectory() {
  std::string CacheDir = CacheDirOpt;
  if (CacheDir.empty())
    if (auto EnvDir = sys::Process::GetEnv("WARPLINT_CACHE_DIR"))
      CacheDir = *EnvDir;
  return CacheDir;
}

Expected<std::unique_ptr<ResultCache>>
openResultCache(std::vector<FileTask> &Tasks, StringRef Self,
                StringRef ArchDir) {
  std::string CacheDir = cacheDirectory();
  if (CacheDir.empty() || DumpAnalysisOpt)
    return nullptr;
  auto C = ResultCache::open(CacheDir, buildIdentity(Self, ArchDir));
  if (!C)
    return C.takeError();
  for (FileTask &T : Tasks)
    T.RecordDependencies = true;
  return std::move(*C);
}

void setUpPtxas(std::vector<FileTask> &Tasks, const RunEnvironment &Env) {
  // Registers per kernel from ptxas, its answers cached beside the results
  // or in the user's cache directory.
  std::string Nvcc = NvccOpt, NoPtxas;
  if (Nvcc.empty() && Env.Toolkit.found()) {
    SmallString<256> P(Env.Toolkit.Path);
    sys::path::append(P, "bin", "nvcc");
    Nvcc = std::string(P);
  }
  // --registers-from=ir: the toolkit's ptxas and libdevice, beside nvcc.
  std::string Ptxas, Libdevice;
  if (!Nvcc.empty()) {
    SmallString<256> Bin(sys::path::parent_path(Nvcc));
    SmallString<256> P(Bin);
    sys::path::append(P, "ptxas");
    Ptxas = std::string(P);
    SmallString<256> L(sys::path::parent_path(Bin));
    sys::path::append(L, "nvvm", "libdevice", "libdevice.10.bc");
    if (sys::fs::exists(L))
      Libdevice = std::string(L);
  }
  bool FromIR = RegistersFromOpt == RegisterSource::IR;
  std::string Program = FromIR ? Ptxas : Nvcc;
  if (!PtxasOpt)
    NoPtxas = "--ptxas=false";
  else if (Program.empty())
    NoPtxas = "no CUDA toolkit found";
  else if (!sys::fs::can_execute(Program))
    NoPtxas = "cannot run '" + Program + "'";
  std::string ResourceCache;
  std::string CacheDir = cacheDirectory();
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
  for (FileTask &T : Tasks) {
    if (NoPtxas.empty()) {
      T.Nvcc = Nvcc; // the targets it compiles for, in either case
      if (FromIR) {
        T.Ptxas = Ptxas;
        T.Libdevice = Libdevice;
      }
    }
    T.NoPtxas = NoPtxas;
    T.PrintRegisters = PrintRegistersOpt;
    T.ResourceCacheDir = ResourceCache;
  }
}

} // namespace warplint::cli
