#include "Driver/IRLayer.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/Launches.h"
#include "Analysis/SyncPrimitives.h"
#include "Core/Check.h"
#include "Driver/IRBarrierReport.h"
#include "Driver/ResourceUsage.h"
#include "IR/BarrierDivergence.h"
#include "IR/Barriers.h"
#include "IR/OptimisedAccesses.h"
#include "IR/Pieces.h"
#include "IR/Ptx.h"
#include "IR/Report.h"
#include "Support/FatalErrors.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace warplint {

namespace {

using CodeGenEvent = std::function<void(CodeGenerator &)>;

// The largest kernel, in LLVM instructions after -O3, whose registers
// ptxas is asked for: ptxas's time grows faster than the code (a
// tensor-core GEMM of 20000 instructions takes it seconds), and a lint
// should cost about one parse. Larger kernels are judged without registers.
constexpr unsigned PtxBudget = 4000;

// Counts the code generator's diagnostics and shows none; keeps the first
// error's text for the warning that says why the IR layer has no findings.
class SilentDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !FirstError.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    FirstError = Text.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P = Info.getSourceManager().getPresumedLoc(
          Info.getSourceManager().getFileLoc(Info.getLocation()));
      if (P.isValid())
        FirstError = std::to_string(P.getLine()) + ":" +
                     std::to_string(P.getColumn()) + ": " + FirstError;
    }
  }
  std::string FirstError;
};

// Routes CI's diagnostics to a silent consumer while alive.
class SilenceDiagnostics {
public:
  explicit SilenceDiagnostics(DiagnosticsEngine &D)
      : D(D), Old(D.getClient()), Owned(D.takeClient()) {
    D.setClient(&Silent, /*ShouldOwnClient=*/false);
  }
  ~SilenceDiagnostics() {
    bool Owns = Owned != nullptr;
    D.setClient(Owns ? Owned.release() : Old, Owns);
  }
  unsigned errors() const { return Silent.getNumErrors(); }
  const std::string &firstError() const { return Silent.FirstError; }

private:
  DiagnosticsEngine &D;
  DiagnosticConsumer *Old;
  std::unique_ptr<DiagnosticConsumer> Owned;
  SilentDiagnostics Silent;
};

// Runs the code generator on the recorded events, with CI's diagnostics
// silenced: it is not the compiler the user asked for.
llvm::Expected<std::unique_ptr<llvm::Module>>
generateIR(CompilerInstance &CI, ASTContext &AST,
           const std::vector<CodeGenEvent> &Events, llvm::LLVMContext &LLVM,
           const SilenceDiagnostics &Silence) {
  // Line tables for the source positions; no optnone, which -O0 implies,
  // since the layer runs its own passes.
  CodeGenOptions &CGO = CI.getCodeGenOpts();
  CGO.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
  CGO.DebugColumnInfo = true;
  CGO.DisableO0ImplyOptNone = true;
  // Nor the noinline that -O0 puts on every function: the optimised view
  // inlines as -O3 would, and only the user's __noinline__ stays.
  CGO.setInlining(CodeGenOptions::NormalInlining);

  std::unique_ptr<CodeGenerator> Gen = CreateLLVMCodeGen(CI, "warplint", LLVM);
  Gen->Initialize(AST);
  for (const CodeGenEvent &E : Events)
    E(*Gen);
  Gen->HandleTranslationUnit(AST);
  std::unique_ptr<llvm::Module> M = Gen->ReleaseModule();
  if (!M || Silence.errors())
    return llvm::createStringError(Silence.firstError().empty()
                                       ? "the code generator reported errors"
                                       : Silence.firstError());
  return M;
}

class IRLayer : public IRLayerConsumer {
public:
  IRLayer(CompilerInstance &CI,
          std::function<std::vector<IRLayerTarget>()> Targets, bool *Analysed,
          std::string BarrierCheck, std::string *Failure, IRLayerPtxas Ptxas)
      : CI(CI), Targets(std::move(Targets)), Analysed(Analysed),
        BarrierCheck(std::move(BarrierCheck)), Failure(Failure),
        Ptxas(std::move(Ptxas)) {}

  bool HandleTopLevelDecl(DeclGroupRef D) override {
    if (!isSystemKernel(D))
      record([D](CodeGenerator &G) { G.HandleTopLevelDecl(D); });
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *D) override {
    record([D](CodeGenerator &G) { G.HandleInlineFunctionDefinition(D); });
  }
  void HandleTagDeclDefinition(TagDecl *D) override {
    record([D](CodeGenerator &G) { G.HandleTagDeclDefinition(D); });
  }
  void HandleTagDeclRequiredDefinition(const TagDecl *D) override {
    record([D](CodeGenerator &G) { G.HandleTagDeclRequiredDefinition(D); });
  }
  void HandleCXXStaticMemberVarInstantiation(VarDecl *D) override {
    record(
        [D](CodeGenerator &G) { G.HandleCXXStaticMemberVarInstantiation(D); });
  }
  void CompleteTentativeDefinition(VarDecl *D) override {
    record([D](CodeGenerator &G) { G.CompleteTentativeDefinition(D); });
  }
  void CompleteExternalDeclaration(DeclaratorDecl *D) override {
    record([D](CodeGenerator &G) { G.CompleteExternalDeclaration(D); });
  }
  void AssignInheritanceModel(CXXRecordDecl *D) override {
    record([D](CodeGenerator &G) { G.AssignInheritanceModel(D); });
  }
  void HandleVTable(CXXRecordDecl *D) override {
    record([D](CodeGenerator &G) { G.HandleVTable(D); });
  }

  void HandleTranslationUnit(ASTContext &AST) override {
    if (BarrierCheck.empty())
      return;
    llvm::Module *M = generated(AST);
    bool Crashed = !M;
    if (M) {
      Crashed = !CRC.RunSafely([&] { analyse(*M); });
      if (Crashed)
        fail("the barrier analysis stopped", takeFatalError());
    }
    if (Analysed)
      *Analysed = !Crashed;
    if (Crashed)
      abandon();
  }

  const ir::OptimisedAccesses *optimisedAccesses(llvm::StringRef CPU) override {
    auto [It, New] = Optimised.try_emplace(CPU);
    if (!New)
      return It->second.get();
    // A failure in the passes costs the optimised view, not the file. The
    // view optimises the module's pieces as the checks' questions need
    // them, each under a recovery context of its own (the question may
    // come from inside another: the register compile's size question).
    auto Guard = [this](llvm::function_ref<void()> Work) {
      llvm::CrashRecoveryContext Piece;
      if (Piece.RunSafely(Work))
        return true;
      fail("the -O3 pipeline stopped", takeFatalError());
      abandon();
      return false;
    };
    if (llvm::Module *M = generated(*AST))
      Guard([&] {
        It->second =
            ir::OptimisedAccesses::analyse(copiesOf(*M), *M, CPU, Guard);
      });
    return It->second.get();
  }

  void Initialize(ASTContext &Context) override { AST = &Context; }

  void expectKernel(llvm::StringRef Mangled) override {
    if (!BatchOf.count(Mangled))
      Expected.insert(Mangled.str());
  }

  std::optional<KernelResources> kernelResources(llvm::StringRef Target,
                                                 llvm::StringRef Mangled,
                                                 std::string &Why) override {
    if (Ptxas.Ptxas.empty()) {
      Why = "ptxas was not run";
      return std::nullopt;
    }
    auto Found = BatchOf.find(Mangled);
    if (Found == BatchOf.end()) {
      Expected.insert(Mangled.str());
      compileExpected();
      Found = BatchOf.find(Mangled);
    }
    Batch &B = Batches[Found->second];
    if (!B.Failure.empty()) {
      Why = B.Failure;
      return std::nullopt;
    }
    for (const auto &[Kernel, Size] : B.Ptx.TooLarge)
      if (Kernel == Mangled) {
        // launch-occupancy's file note knows this reason, and "the device
        // code could not be generated" below, by their words.
        Why = "the kernel is " + std::to_string(Size) +
              " LLVM instructions after -O3, more than the " +
              std::to_string(PtxBudget) +
              " warplint compiles for its registers "
              "(--registers-from=nvcc counts them)";
        return std::nullopt;
      }
    for (const auto &[Kernel, Legacy] : B.Ptx.Unsupported)
      if (Kernel == Mangled) {
        Why = "the kernel calls the legacy " + Legacy + " (no .sync), which " +
              CI.getTargetOpts().CPU +
              " and every target from sm_70 on lack: no code can be "
              "generated for it (the _sync form, or warp-legacy-intrinsic's "
              "fix, makes it compile)";
        return std::nullopt;
      }
    // A kernel this file declares and another defines (bitsandbytes'
    // ops.cu launching kernels.cu's): no code here to count, and ptxas is
    // not asked to compile nothing.
    if (!llvm::is_contained(B.Ptx.Kernels, Mangled)) {
      Why = "its code is in another file";
      return std::nullopt;
    }
    auto [It, New] = B.Allocated.try_emplace(Target);
    if (New)
      It->second.Kernels = ptxasResources(Ptxas.Ptxas, Target, B.Ptx.Text,
                                          Ptxas.CacheDir, It->second.Failure);
    if (!It->second.Failure.empty()) {
      Why = "ptxas could not compile the kernels' PTX for " + Target.str() +
            " (" + It->second.Failure + ")";
      registersFailed(Why);
      return std::nullopt;
    }
    auto K = It->second.Kernels.find(Mangled.str());
    if (K == It->second.Kernels.end())
      return std::nullopt;
    KernelResources Out = K->second;
    Out.Generated = true;
    return Out;
  }

private:
  // The module of this parse, generated on first use; null when code
  // generation failed or crashed (never an error of the run).
  llvm::Module *generated(ASTContext &AST) {
    if (Generation)
      return *Generation ? M.get() : nullptr;
    Generation = false;
    if (CI.getDiagnostics().hasErrorOccurred())
      return nullptr;
    // A crash in code generation or in the passes costs the IR findings of
    // this parse, not the file: what it leaves behind is abandoned.
    LLVM = std::make_unique<llvm::LLVMContext>();
    bool Crashed;
    {
      SilenceDiagnostics Silence(CI.getDiagnostics());
      Crashed = !CRC.RunSafely([&] {
        injectFatalError();
        auto Result = generateIR(CI, AST, Events, *LLVM, Silence);
        if (Result)
          M = std::move(*Result);
        else // no IR findings for this parse, never an error: a warning
          fail("code generation failed", llvm::toString(Result.takeError()));
      });
    }
    if (Crashed) {
      fail("code generation stopped", takeFatalError());
      abandon();
    }
    Generation = M != nullptr;
    return M.get();
  }

  // For the tests: an LLVM fatal error (the exit(1) kind, which without
  // the recorder would end the whole run) in the code generation of a file
  // whose name contains WARPLINT_DEBUG_IR_FATAL_ERROR.
  void injectFatalError() {
    const char *Name = std::getenv("WARPLINT_DEBUG_IR_FATAL_ERROR");
    SourceManager &SM = CI.getSourceManager();
    auto Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (Name && *Name && Main && Main->getName().contains(Name))
      llvm::reportFatalUsageError("injected by WARPLINT_DEBUG_IR_FATAL_ERROR");
  }

  // Why the IR layer has no findings for this parse, for the warning that
  // says so (the first reason only).
  void fail(llvm::StringRef What, std::string Why) {
    if (!Failure || !Failure->empty())
      return;
    *Failure = "the IR layer's " + What.str() +
               (Why.empty() ? std::string(" (a crash)") : " (" + Why + ")") +
               " for " + CI.getTargetOpts().CPU +
               "; its findings for this file are missing (divergence-barrier's "
               "IR verdicts, the optimised view of the memory checks and "
               "divergence-subwarp-branch), the AST findings stand";
  }

  // The register count's own code generation or ptxas failed: the IR
  // findings stand, launch-occupancy's launches of the kernels go without
  // registers and its findings say why; stderr says it too, where no
  // finding would (a code-generation error is never silent).
  void registersFailed(const std::string &Why) {
    if (!Failure || !Failure->empty())
      return;
    *Failure = "warplint's register count failed: " + Why +
               "; launch-occupancy judges these kernels without their "
               "registers (--registers-from=nvcc counts them)";
  }

  void abandon() {
    (void)M.release();
    (void)LLVM.release();
    (void)Copies.release();
    Generation = false;
  }

private:
  void record(CodeGenEvent E) { Events.push_back(std::move(E)); }

  // The PTX of the kernels expected and not yet compiled, for the parse's
  // target: one more batch.
  void compileExpected() {
    std::vector<std::string> Names(Expected.begin(), Expected.end());
    Expected.clear();
    Batches.emplace_back();
    for (const std::string &N : Names)
      BatchOf[N] = Batches.size() - 1;
    Batch &B = Batches.back();
    llvm::Module *M = AST ? generated(*AST) : nullptr;
    if (!M) {
      B.Failure = "the device code could not be generated";
      return;
    }
    std::string CPU = CI.getTargetOpts().CPU;
    // The optimised view, if the memory checks made it already for this
    // CPU, knows which kernels are far too large to compile.
    auto View = Optimised.find(CPU);
    const ir::OptimisedAccesses *Known =
        View != Optimised.end() ? View->second.get() : nullptr;
    auto KnownSize = [&](llvm::StringRef Name) -> std::optional<unsigned> {
      return Known ? Known->sizeOf(Name) : std::nullopt;
    };
    std::string Error;
    bool Crashed = !CRC.RunSafely([&] {
      auto R =
          ir::kernelsPtx(*M, Names, CPU, Ptxas.Libdevice, PtxBudget, KnownSize);
      if (R)
        B.Ptx = std::move(*R);
      else
        Error = llvm::toString(R.takeError());
    });
    // The copy lived in a context of its own: the module and the IR
    // findings are untouched. Code the target cannot compile (a legacy
    // __shfl on sm_70 and later) stops the code generator, as it stops nvcc.
    if (Crashed)
      Error = takeFatalError();
    if (Crashed || !Error.empty()) {
      B.Failure =
          "the PTX of the kernels could not be generated (" + Error + ")";
      registersFailed(B.Failure + " for " + CPU);
    }
  }

  // The pieces of the generated module M, shared by the optimised views
  // and the barrier analysis.
  ir::PieceCopies &copiesOf(const llvm::Module &M) {
    if (!Copies)
      Copies = std::make_unique<ir::PieceCopies>(M);
    return *Copies;
  }

  // The barrier analysis inlines into what it judges: it works on one piece
  // of M at a time, and M stays as generated for the optimised view.
  void analyse(const llvm::Module &M) {
    ir::PrepareOptions Opts;
    Opts.InSystemHeader = [this](const llvm::Function &F) {
      return inSystemHeader(F);
    };
    Opts.BlockDimX = [this](const llvm::Function &F) {
      return launchedBlockDimX(F.getName());
    };
    Opts.LaunchedArguments = [this](const llvm::Function &F) {
      return launchedArguments(F);
    };
    std::vector<std::unique_ptr<IRBarrierReporter>> Reps;
    for (const IRLayerTarget &T : Targets())
      Reps.push_back(createIRBarrierReporter(*T.Ctx, *T.Sink, BarrierCheck));
    JudgedBarriers Judged;
    // Every verdict is about a barrier a function of its piece calls: a
    // piece without one (a file's kernels that never synchronise) is not
    // copied, inlined or judged.
    llvm::DenseSet<const llvm::Function *> Synchronising;
    for (const llvm::Function &F : M)
      if (!F.isDeclaration() && ir::callsBlockBarrier(F))
        Synchronising.insert(&F);
    copiesOf(M).forEach(
        [&](llvm::Module &Copy) {
          ir::BarrierResult R = ir::analyseBarriers(Copy, Opts);
          for (const std::unique_ptr<IRBarrierReporter> &Rep : Reps)
            for (const ir::BarrierVerdict *V : R.divergent())
              Rep->report(*V);
          collectJudged(R, Judged);
        },
        [&](const ir::Piece &P) {
          return llvm::any_of(P.Functions, [&](const llvm::Function *F) {
            return Synchronising.contains(F);
          });
        });
    for (const std::unique_ptr<IRBarrierReporter> &Rep : Reps)
      Rep->settle(Judged);
  }

  // Kernels from system headers (CUB's and Thrust's, instantiated by the
  // host code the device parse sees) are not generated at all: nothing in
  // them could be reported, and they are most of the IR of such a TU.
  bool isSystemKernel(DeclGroupRef D) const {
    if (!D.isSingleDecl())
      return false;
    const auto *FD = dyn_cast<FunctionDecl>(D.getSingleDecl());
    return FD && FD->hasAttr<CUDAGlobalAttr>() &&
           CI.getSourceManager().isInSystemHeader(FD->getLocation());
  }

  // blockDim.x of a kernel (by its device-side name) when every launch of it
  // in the TU agrees on a literal one (the AST's launch shapes), else 0.
  unsigned launchedBlockDimX(llvm::StringRef Name) {
    if (!BlockDimXByName) {
      BlockDimXByName.emplace();
      std::vector<IRLayerTarget> Ts = Targets();
      if (!AST || Ts.empty())
        return 0;
      // The launches, recorded here too: with the IR layer alone no check
      // has seen them (recording one twice is a no-op).
      for (const CallExpr *L : userLaunches(*AST))
        Ts.front().Ctx->affine().recordLaunch(L);
      // The kernels the launches pinned a shape for, by the launches the
      // analysis recorded: a walk of the TU's declarations would read every
      // one of a preamble's (the language server's CUB file: a fifth of
      // each re-lint).
      std::unique_ptr<MangleContext> MC(AST->createMangleContext());
      for (const auto &[Kernel, S] :
           Ts.front().Ctx->affine().launchedShapes()) {
        const FunctionDecl *FD = Kernel;
        if (const FunctionDecl *Def = FD->getDefinition())
          FD = Def;
        if (!FD->hasAttr<CUDAGlobalAttr>() || FD->isDependentContext())
          continue;
        std::string Mangled;
        if (MC->shouldMangleDeclName(FD)) {
          llvm::raw_string_ostream OS(Mangled);
          MC->mangleName(GlobalDecl(FD), OS);
        } else {
          Mangled = FD->getName().str();
        }
        KernelByName[Mangled] = FD;
        if (S.pinned())
          (*BlockDimXByName)[Mangled] = S.X;
      }
    }
    if (unsigned X = BlockDimXByName->lookup(Name))
      return X;
    // With -fgpu-rdc clang externalises a static kernel under its mangled
    // name with a suffix of the TU's hash ("__intern__<hash>", or
    // ".static.<hash>" for variables).
    for (llvm::StringRef Mark : {"__intern__", ".static."})
      if (Name.contains(Mark))
        return BlockDimXByName->lookup(Name.split(Mark).first);
    return 0;
  }

  // Per argument of a launched kernel, the constant every launch in the
  // TU passes for it (the engine's launch facts).
  std::vector<std::optional<int64_t>>
  launchedArguments(const llvm::Function &F) {
    launchedBlockDimX(F.getName()); // indexes the launched kernels
    llvm::StringRef Name = F.getName();
    for (llvm::StringRef Mark : {"__intern__", ".static."})
      if (Name.contains(Mark))
        Name = Name.split(Mark).first;
    const FunctionDecl *FD = KernelByName.lookup(Name);
    std::vector<IRLayerTarget> Ts = Targets();
    std::vector<std::optional<int64_t>> Out(F.arg_size());
    if (!FD || Ts.empty() || FD->getNumParams() != F.arg_size())
      return Out;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (auto Values = Ts.front().Ctx->engine().launchedArguments(
              FD, FD, FD->getParamDecl(I));
          Values && !Values->empty() && llvm::all_equal(*Values))
        Out[I] = Values->front();
    return Out;
  }

  bool inSystemHeader(const llvm::Function &F) {
    const llvm::DISubprogram *SP = F.getSubprogram();
    if (!SP)
      return false;
    std::string Path = ir::pathOf(SP->getFile());
    auto [It, New] = SystemFiles.try_emplace(Path, false);
    if (New) {
      SourceManager &SM = CI.getSourceManager();
      if (auto Ref = SM.getFileManager().getOptionalFileRef(Path)) {
        FileID FID = SM.translateFile(*Ref);
        It->second =
            FID.isValid() && SM.isInSystemHeader(SM.getLocForStartOfFile(FID));
      }
    }
    return It->second;
  }

  CompilerInstance &CI;
  std::function<std::vector<IRLayerTarget>()> Targets;
  bool *Analysed;
  std::string BarrierCheck; // empty: barriers are not judged
  std::string *Failure;     // why the IR layer failed, if it did
  ASTContext *AST = nullptr;
  std::optional<llvm::StringMap<unsigned>> BlockDimXByName;
  llvm::StringMap<const FunctionDecl *> KernelByName; // launched kernels
  std::vector<CodeGenEvent> Events;
  llvm::CrashRecoveryContext CRC;
  std::unique_ptr<llvm::LLVMContext> LLVM;
  std::unique_ptr<llvm::Module> M;
  std::optional<bool> Generation;          // set once generation was tried
  std::unique_ptr<ir::PieceCopies> Copies; // of M, made on first use
  llvm::StringMap<std::unique_ptr<ir::OptimisedAccesses>> Optimised;
  llvm::StringMap<bool> SystemFiles; // by path: pieces come and go
  IRLayerPtxas Ptxas;
  // The kernels whose registers the checks will ask for, not yet compiled;
  // the batches compiled, and each kernel's.
  struct Allocation {
    std::map<std::string, KernelResources> Kernels;
    std::string Failure;
  };
  struct Batch {
    ir::KernelsPtx Ptx;
    std::string Failure;
    llvm::StringMap<Allocation> Allocated; // by target
  };
  std::set<std::string> Expected;
  std::vector<Batch> Batches;
  llvm::StringMap<size_t> BatchOf;
};

} // namespace

std::unique_ptr<IRLayerConsumer>
createIRLayerConsumer(CompilerInstance &CI,
                      std::function<std::vector<IRLayerTarget>()> Targets,
                      bool *Analysed, std::string BarrierCheck,
                      std::string *Failure, IRLayerPtxas Ptxas) {
  return std::make_unique<IRLayer>(CI, std::move(Targets), Analysed,
                                   std::move(BarrierCheck), Failure,
                                   std::move(Ptxas));
}

} // namespace warplint
