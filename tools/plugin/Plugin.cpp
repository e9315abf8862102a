// The clang plugin: the same AST checks inside a normal compile
//   clang++ -fplugin=WarpLintPlugin.so [-Xclang -plugin-arg-warplint -Xclang
//   checks=...]
// reported as clang diagnostics tagged [check-id]. It is also the
// -fpass-plugin= entry point for warplint's IR layer (divergence-barrier on
// the device IR of the compile) and, for opt -load-pass-plugin=, its
// print<warplint-barriers> printer.
#include "Analysis/Budget.h"
#include "Arch/ArchTable.h"
#include "Core/Check.h"
#include "Core/Config.h"
#include "DiagnosticReport.h"
#include "Driver/IRLayer.h"
#include "Driver/Toolkit.h"
#include "IR/BarrierDivergence.h"
#include "checks/Registry.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <dlfcn.h>
#include <mutex>
#include <set>

using namespace clang;

namespace warplint {
namespace {

// clang compiles a CUDA file once per GPU and once for the host, often in
// separate processes. Device-side checks run in the device passes only (each
// judges its own GPU); host-side checks run in the host pass only. Findings
// repeated within one process are shown once.
std::mutex SeenMutex;
std::set<std::string> &seen() {
  static std::set<std::string> S;
  return S;
}

// The plugin arguments of the compile in progress that the pass plugin
// honours too (clang runs its jobs one after the other in one process).
struct IRLayerArgs {
  std::string Checks;
  IRLayerMode Mode = IRLayerMode::On;
};
IRLayerArgs &irLayerArgs() {
  static IRLayerArgs A;
  return A;
}

std::optional<IRLayerMode> parseIRLayerMode(llvm::StringRef V) {
  if (V == "true")
    return IRLayerMode::On;
  if (V == "false")
    return IRLayerMode::Off;
  if (V == "only")
    return IRLayerMode::Only;
  return std::nullopt;
}

// divergence-barrier findings of the AST checks in this process, as
// "arch|absolute file:line": the IR layer, which runs later in the same
// device compile, does not repeat them.
std::set<std::string> &astBarrierLines() {
  static std::set<std::string> S;
  return S;
}

std::string barrierLineKey(llvm::StringRef Arch, llvm::StringRef File,
                           unsigned Line) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return (Arch + "|" + Abs + ":" + llvm::Twine(Line)).str();
}

// The path of this .so, found from an address inside it.
std::string pluginPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&pluginPath), &Info) && Info.dli_fname)
    return Info.dli_fname;
  return "./WarpLintPlugin.so";
}

const ArchTable *loadTables(DiagnosticsEngine &Diags, llvm::StringRef Dir) {
  static std::once_flag Once;
  static std::optional<ArchTable> Tables;
  static std::string Error;
  std::call_once(Once, [&] {
    auto T = ArchTable::loadDirectory(Dir);
    if (T)
      Tables = std::move(*T);
    else
      Error = llvm::toString(T.takeError());
  });
  if (!Tables) {
    Diags.Report(
        Diags.getCustomDiagID(DiagnosticsEngine::Error, "warplint: %0"))
        << Error;
    return nullptr;
  }
  return &*Tables;
}

// The check the IR layer's barrier verdicts are reported for (the one that
// declared needs::IRBarriers in Checks.def).
llvm::StringRef barrierCheck() {
  for (const CheckInfo &C : allChecks())
    if (C.Needs & needs::IRBarriers)
      return C.Id;
  return "";
}

// Inside the compiler there is no second compile to ask ptxas, and no IR
// layer beside the parse.
class PluginServices : public RunServices {
public:
  std::optional<KernelResources> kernelResources(const ArchInfo &,
                                                 llvm::StringRef,
                                                 std::string &Why) override {
    Why = "the compiler plugin does not run ptxas";
    return std::nullopt;
  }
};

class PluginConsumer : public ASTConsumer {
public:
  PluginConsumer(CompilerInstance &CI, const ArchTable &Tables,
                 const ArchInfo *Arch, EffectiveSettings S, bool Device)
      : CI(CI), Arch(Arch), Checks(S.ChecksText), WAE(S.WarningsAsErrorsText),
        Options(std::move(S.CheckOptions)),
        Ctx(std::make_unique<CheckContext>(Tables, Arch, Options, WAE, Sink)),
        Device(Device) {
    // Inside the compiler there is no second compile to ask ptxas.
    Ctx->setServices(&Services);
  }

  void HandleTranslationUnit(ASTContext &AST) override {
    // Host code is judged in the host pass only: clang runs each pass as
    // its own job, so a host finding of every GPU's pass would be repeated.
    auto Runner = std::make_unique<CheckRunner>(
        allChecks(), Checks, Device ? CheckSide::Device : CheckSide::Host,
        *Ctx);
    // A crash in a check must not take the compile down: it becomes a
    // warning of the plugin and the compile goes on (the checks only read
    // the AST). clang's driver enables crash recovery for its in-process
    // cc1; a cc1 of its own process (-fno-integrated-cc1) needs it here.
    // The checks run on a thread with the stack the CLI gives them
    // (Analysis/Budget.h): cc1's 8 MiB do not hold their walk of an
    // expression of 30000 operators.
    llvm::CrashRecoveryContext::Enable();
    llvm::CrashRecoveryContext CRC;
    if (!CRC.RunSafelyOnThread([&] { Runner->run(AST); }, AnalysisStackSize)) {
      // Abandoned, not destroyed: the crash left them half-way through.
      (void)Runner.release();
      (void)Ctx.release();
      DiagnosticsEngine &Diags = CI.getDiagnostics();
      Diags.Report(Diags.getCustomDiagID(
          DiagnosticsEngine::Warning,
          "warplint: internal error: a check crashed while analysing this "
          "file%0; its findings are incomplete (please report this)"))
          << (Device && Arch ? " for " + Arch->Name : std::string());
    }
    report(AST.getSourceManager());
  }

private:
  void report(SourceManager &SM) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    FileManager &FM = SM.getFileManager();
    auto LocOf = [&](const Location &L) {
      if (L.File.empty())
        return SourceLocation();
      auto FE = FM.getOptionalFileRef(L.File);
      if (!FE)
        return SourceLocation();
      return SM.translateFileLineCol(*FE, L.Line, L.Column);
    };
    std::lock_guard<std::mutex> Lock(SeenMutex);
    for (const Finding &F : Sink.findings()) {
      std::string Key = F.Check + "|" + F.Loc.File + ":" +
                        std::to_string(F.Loc.Line) + ":" +
                        std::to_string(F.Loc.Column) + "|" + F.Message;
      if (F.Check == barrierCheck())
        astBarrierLines().insert(
            barrierLineKey(F.archList(), F.Loc.File, F.Loc.Line));
      if (!seen().insert(Key).second)
        continue;
      // A note-level finding stands alone: a remark, as clang's own
      // advice is (a clang note would attach to the diagnostic before it).
      DiagnosticsEngine::Level L =
          F.effectiveLevel() == Severity::Error     ? DiagnosticsEngine::Error
          : F.effectiveLevel() == Severity::Warning ? DiagnosticsEngine::Warning
                                                    : DiagnosticsEngine::Remark;
      Diags.Report(LocOf(F.Loc), Diags.getCustomDiagID(L, "%0 [%1]"))
          << F.Message << F.Check;
      for (const FindingNote &N : F.Notes)
        Diags.Report(LocOf(N.Loc),
                     Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
            << N.Message;
    }
  }

  CompilerInstance &CI;
  const ArchInfo *Arch;
  GlobList Checks, WAE;
  CheckOptionMap Options;
  DiagSink Sink;
  PluginServices Services;
  std::unique_ptr<CheckContext> Ctx;
  bool Device;
};

class WarplintPluginAction : public PluginASTAction {
protected:
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    irLayerArgs() = {};
    for (llvm::StringRef A : Args) {
      auto [Key, Value] = A.split('=');
      if (Key == "checks")
        ChecksArg = irLayerArgs().Checks = Value.str();
      else if (Key == "ir-layer" && parseIRLayerMode(Value))
        irLayerArgs().Mode = *parseIRLayerMode(Value);
      else if (Key == "warnings-as-errors")
        WAEArg = Value.str();
      else if (Key == "arch")
        ArchArg = Value.str();
      else if (Key == "config-file")
        ConfigArg = Value.str();
      else if (Key == "arch-data")
        ArchDataArg = Value.str();
      else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(
            DiagnosticsEngine::Error,
            "warplint: unknown plugin argument '%0' (known: checks=, "
            "warnings-as-errors=, arch=, config-file=, arch-data=, "
            "ir-layer=true|false|only)"))
            << A;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &CI, llvm::StringRef File) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    std::string Dir = ArchDataArg;
    if (Dir.empty())
      Dir = shareDirectoryFor(pluginPath()) + "/arch-data";
    const ArchTable *Tables = loadTables(Diags, Dir);
    if (!Tables)
      return std::make_unique<ASTConsumer>();

    std::optional<Config> Cfg;
    std::string CfgPath = ConfigArg;
    if (CfgPath.empty())
      if (auto P = findConfigFile(File))
        CfgPath = *P;
    if (!CfgPath.empty()) {
      auto C = loadConfigFile(CfgPath);
      if (!C) {
        Diags.Report(
            Diags.getCustomDiagID(DiagnosticsEngine::Error, "warplint: %0"))
            << llvm::toString(C.takeError());
        return std::make_unique<ASTConsumer>();
      }
      Cfg = std::move(*C);
    }
    std::string Checks = ChecksArg;
    if (irLayerArgs().Mode == IRLayerMode::Only)
      Checks += ",-" + barrierCheck().str();
    EffectiveSettings S =
        combineSettings(Cfg ? &*Cfg : nullptr, Checks, WAEArg);

    bool Device = CI.getLangOpts().CUDA && CI.getLangOpts().CUDAIsDevice;
    const ArchInfo *Arch = nullptr;
    if (Device) // the device pass compiles for one GPU: judge for that one
      Arch = Tables->find(CI.getTarget().getTargetOpts().CPU);
    if (!Arch) {
      std::vector<std::string> Names;
      if (!ArchArg.empty())
        appendArchList(ArchArg, Names);
      else
        Names = S.ConfigArchs;
      Arch = Tables->find(Names.empty() ? "sm_80" : Names.front());
      if (!Arch) {
        Diags.Report(Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "warplint: unknown architecture '%0'; known: %1"))
            << (Names.empty() ? "sm_80" : Names.front())
            << Tables->knownNames();
        return std::make_unique<ASTConsumer>();
      }
    }
    return std::make_unique<PluginConsumer>(CI, *Tables, Arch, std::move(S),
                                            Device);
  }

private:
  std::string ChecksArg, WAEArg, ArchArg, ConfigArg, ArchDataArg;
};

} // namespace
} // namespace warplint

static FrontendPluginRegistry::Add<warplint::WarplintPluginAction>
    X("warplint", "warplint: CUDA performance and correctness checks");

namespace warplint {
namespace {

// The rule tables for the IR layer's messages; null if they cannot be read
// (the messages then leave the target out).
const ArchTable *passPluginTables() {
  static std::once_flag Once;
  static std::optional<ArchTable> Tables;
  std::call_once(Once, [] {
    auto T = ArchTable::loadDirectory(shareDirectoryFor(pluginPath()) +
                                      "/arch-data");
    if (T)
      Tables = std::move(*T);
    else
      llvm::consumeError(T.takeError());
  });
  return Tables ? &*Tables : nullptr;
}

// divergence-barrier as the AST plugin would judge it: the file's
// .warplint.yaml, then checks= and ir-layer= of this compile.
bool barrierCheckEnabled(llvm::StringRef SourceFile) {
  if (irLayerArgs().Mode == IRLayerMode::Off)
    return false;
  llvm::SmallString<256> Abs(SourceFile);
  llvm::sys::fs::make_absolute(Abs);
  std::optional<Config> Cfg;
  if (auto Path = findConfigFile(Abs)) {
    auto C = loadConfigFile(*Path);
    if (!C) { // the AST plugin reports a malformed config
      llvm::consumeError(C.takeError());
      return false;
    }
    Cfg = std::move(*C);
  }
  EffectiveSettings S =
      combineSettings(Cfg ? &*Cfg : nullptr, irLayerArgs().Checks, "");
  return GlobList(S.ChecksText).contains(barrierCheck());
}

ir::DiagnosticReportOptions passPluginOptions() {
  ir::DiagnosticReportOptions Opts;
  Opts.Tables = passPluginTables();
  CudaToolkit Toolkit = findCudaToolkit("");
  if (Toolkit.found())
    Opts.SystemDirs.push_back(Toolkit.Path);
  for (const char *Dir : {WARPLINT_CLANG_RESOURCE_DIR, "/usr/include",
                          "/usr/local/include", "/usr/lib"})
    Opts.SystemDirs.push_back(Dir);
  Opts.CheckId = barrierCheck().str();
  Opts.Enabled = barrierCheckEnabled;
  Opts.ReportedByAST = [](llvm::StringRef File, unsigned Line,
                          llvm::StringRef Arch) {
    std::lock_guard<std::mutex> Lock(SeenMutex);
    return astBarrierLines().count(barrierLineKey(Arch, File, Line)) != 0;
  };
  return Opts;
}

} // namespace
} // namespace warplint

// -fpass-plugin= entry point: the IR layer runs first in the device
// compile's pipeline (NVPTX modules only), on a clone of the module, before
// any optimisation. print<warplint-barriers> is registered too, but opt
// cannot load this .so (it links libclang-cpp): opt loads WarpLintIRPlugin.so.
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "warplint", WARPLINT_VERSION,
          [](llvm::PassBuilder &PB) {
            warplint::ir::registerBarrierPasses(PB);
            PB.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
                  MPM.addPass(warplint::ir::BarrierDiagnosticsPass(
                      warplint::passPluginOptions()));
                });
          }};
}
