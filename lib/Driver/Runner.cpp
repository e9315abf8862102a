#include "Driver/Runner.h"
#include "Analysis/Budget.h"
#include "Driver/OneParse.h"
#include "Driver/Preamble.h"
#include "Driver/ResourceUsage.h"
#include "Driver/IRLayer.h"
#include "checks/Registry.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>

using namespace clang;

namespace warplint {

namespace {

// The errors of a file's first parse, and whether a second parse recovers
// the findings they cost (clang generates no device code after an error, so
// the IR layer would not run):
// - errors only in the bodies of the main file's host functions: clang's
//   device-side parse judges host code that nvcc hands to the host compiler
//   (an initialised variable-sized array, which GCC accepts), and the device
//   code and the other host functions do not need those bodies. The file is
//   parsed again without them (as the language server's focused pass skips
//   bodies), a warning names each function left out, and the errors stand;
// - a `%name` in inline assembly that nvcc passes to ptxas as written: the
//   file is parsed again with it written `%%name`, and the errors become
//   warnings;
// - a kernel launched from device code without -fgpu-rdc, which nvcc refuses
//   too without -rdc=true: the file is parsed again with -fgpu-rdc, as its
//   build must compile it, and the errors stand.
struct FirstParseErrors {
  // Each error of the parse: its offset in the main file (none: elsewhere,
  // or without a location) and its text.
  std::vector<std::pair<std::optional<unsigned>, std::string>> Errors;
  // After the parse: the host bodies that hold every error, when they do,
  // each with its warning.
  std::vector<std::pair<unsigned, std::string>> Broken; // name offset, text
  // The errors that are a `%name` in inline assembly clang cannot read as
  // an operand (`mov.u64 %0, %globaltimer;`): each with its file, the offset
  // of its `%` there, and its warning.
  struct AsmEscape {
    std::string Path;
    unsigned Percent;
    std::string Warning;
  };
  std::vector<AsmEscape> AsmEscapes;
  // The first kernel launch from device code that needs -fgpu-rdc: where.
  std::string NeedsRdc;
  // Some error is neither of those two kinds.
  bool OtherErrors = false;

  enum class Recovery { None, AsmEscapes, Rdc, SkipHostBodies };
  // The second parse these errors call for.
  Recovery recovery() const {
    if (!OtherErrors && !AsmEscapes.empty() && NeedsRdc.empty())
      return Recovery::AsmEscapes;
    if (!OtherErrors && AsmEscapes.empty() && !NeedsRdc.empty())
      return Recovery::Rdc;
    return Broken.empty() ? Recovery::None : Recovery::SkipHostBodies;
  }
};

// Error Info, an invalid `%` escape in an inline assembly string of a file
// of the user's, as an AsmEscape; nothing for any other error.
std::optional<FirstParseErrors::AsmEscape> asmEscape(const Diagnostic &Info) {
  if (Info.getID() != diag::err_asm_invalid_escape ||
      !Info.hasSourceManager() || !Info.getLocation().isValid())
    return std::nullopt;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation L = Info.getLocation();
  if (!L.isFileID() || SM.isInSystemHeader(L))
    return std::nullopt;
  FileID Id = SM.getFileID(L);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Id);
  if (!Entry)
    return std::nullopt;
  // The error points at the escape's second or third character.
  llvm::StringRef Text = SM.getBufferData(Id);
  unsigned At = SM.getFileOffset(L);
  unsigned Percent = At;
  while (Percent > 0 && At - Percent < 3 && Text[Percent] != '%')
    --Percent;
  if (Text[Percent] != '%' || Percent + 1 >= Text.size() ||
      !llvm::isAlpha(Text[Percent + 1]))
    return std::nullopt;
  size_t End = Percent + 1;
  while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
    ++End;
  std::string Name = Text.slice(Percent, End).str();
  PresumedLoc P = SM.getPresumedLoc(SM.getComposedLoc(Id, Percent));
  return FirstParseErrors::AsmEscape{
      Entry->getName().str(), Percent,
      std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
          std::to_string(P.getColumn()) + ": clang rejects '" + Name +
          "' in inline assembly (invalid % escape), which nvcc passes to "
          "ptxas as written; analysed as '%" +
          Name + "'"};
}

// Collects the compiler's errors (not its warnings: those are the compiler's
// business) with their locations, as clang-tidy reports clang-diagnostic-error;
// with FirstErrors, also where each lies in the main file.
class ErrorCollector : public DiagnosticConsumer {
public:
  ErrorCollector(DiagSink &Sink, llvm::StringRef File,
                 FirstParseErrors *FirstErrors = nullptr)
      : Sink(Sink), File(File.str()), FirstErrors(FirstErrors) {}

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    ToolError E;
    E.Message = Text.str().str();
    E.FromCompiler = true;
    E.Loc.File = File;
    std::optional<unsigned> InMainFile; // the offset there
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation L = SM.getFileLoc(Info.getLocation());
      PresumedLoc P = SM.getPresumedLoc(L);
      if (P.isValid()) {
        E.Loc.File = P.getFilename();
        E.Loc.Line = P.getLine();
        E.Loc.Column = P.getColumn();
      }
      if (SM.isInMainFile(L))
        InMainFile = SM.getFileOffset(L);
    }
    if (FirstErrors) {
      FirstErrors->Errors.push_back(
          {InMainFile, std::to_string(E.Loc.Line) + ":" +
                           std::to_string(E.Loc.Column) + ": " + E.Message});
      if (auto A = asmEscape(Info))
        FirstErrors->AsmEscapes.push_back(std::move(*A));
      else if (Info.getID() == diag::err_cuda_device_kernel_launch_require_rdc)
        FirstErrors->NeedsRdc = E.Loc.File + ":" + std::to_string(E.Loc.Line) +
                                ":" + std::to_string(E.Loc.Column);
      else
        FirstErrors->OtherErrors = true;
    }
    Sink.reportError(std::move(E));
  }

private:
  DiagSink &Sink;
  std::string File;
  FirstParseErrors *FirstErrors;
};

// The host bodies of the main file that hold all of the parse's errors, each
// with the warning that names it; nothing if any error lies elsewhere (in
// device code, a header, between functions) or in a body the parser cannot
// skip.
std::vector<std::pair<unsigned, std::string>>
brokenHostBodies(const FirstParseErrors &E, ASTContext &AST,
                 llvm::StringRef File) {
  Decl *TU = AST.getTranslationUnitDecl();
  std::vector<BodySpan> Bodies = mainFileBodies(TU, AST);
  const SourceManager &SM = AST.getSourceManager();
  llvm::StringRef Text = SM.getBufferData(SM.getMainFileID());
  std::vector<std::pair<unsigned, std::string>> Out;
  for (const auto &[At, Message] : E.Errors) {
    if (!At)
      return {};
    // The outermost body around the error; every body around it host code
    // (not a __device__ lambda in a host function).
    const BodySpan *Outer = nullptr;
    for (const BodySpan &B : Bodies)
      if (B.Begin <= *At && *At < B.End) {
        if (!B.HostOnly)
          return {};
        if (!Outer || B.Begin < Outer->Begin)
          Outer = &B;
      }
    if (!Outer || Outer->AlwaysParsed)
      return {};
    if (llvm::any_of(Out,
                     [&](const auto &B) { return B.first == Outer->Name; }))
      continue;
    size_t End = Outer->Name;
    while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
      ++End;
    PresumedLoc P =
        SM.getPresumedLoc(SM.getComposedLoc(SM.getMainFileID(), Outer->Name));
    std::string Name = Text.slice(Outer->Name, End).str();
    Out.push_back(
        {Outer->Name,
         File.str() + ":" + std::to_string(P.getLine()) + ":" +
             std::to_string(P.getColumn()) +
             ": clang's device-side parse rejects the body of host function '" +
             Name + "' (" + Message +
             "); the rest of the file was analysed without that body, its "
             "device code in full"});
  }
  return Out;
}

// A target a parse is judged for, and where its findings go.
struct Judged {
  const ArchInfo *Arch;
  DiagSink *Sink;
};

// One parse judged for several targets: what decides whether it may be, and
// whether it was.
struct SharedParse {
  std::vector<Judged> Others; // judged on the parse of another target
  TargetDependence Watched;   // the preprocessor's answer
  // Empty once the others were judged on the parse; else why they need
  // parses of their own.
  std::string OwnParsesBecause = "the parse did not finish";
  bool IRAnalysed = false;
};

// The checks of one target over a parse.
struct TargetChecks {
  std::unique_ptr<CheckContext> Ctx;
  std::unique_ptr<CheckRunner> Runner;
};

class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(CompilerInstance &CI, std::vector<TargetChecks> Targets,
                   SharedParse *Shared, std::string *Dump, const FileTask &T,
                   std::vector<BodySpan> *Bodies, FirstParseErrors *FirstErrors)
      : CI(CI), Targets(std::move(Targets)), Shared(Shared), Dump(Dump), T(T),
        Bodies(Bodies), FirstErrors(FirstErrors) {}

  bool shouldSkipFunctionBody(Decl *D) override {
    if (!T.SkipBody)
      return false;
    const SourceManager &SM = CI.getSourceManager();
    SourceLocation Name = D->getLocation();
    return Name.isFileID() && SM.isInMainFile(Name) &&
           T.SkipBody(SM.getFileOffset(Name));
  }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    if (T.MainFileOnly) {
      const SourceManager &SM = CI.getSourceManager();
      for (Decl *D : Group)
        if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
          MainDecls.push_back(D);
    }
    // A newer edit waits: stop parsing.
    return !cancelled();
  }

  void HandleTranslationUnit(ASTContext &AST) override {
    if (cancelled())
      return;
    if (FirstErrors && CI.getDiagnostics().hasErrorOccurred()) {
      if (FirstErrors->recovery() == FirstParseErrors::Recovery::None)
        FirstErrors->Broken = brokenHostBodies(*FirstErrors, AST, T.File);
      if (FirstErrors->recovery() != FirstParseErrors::Recovery::None)
        return; // parsed again: nothing of this parse is kept
    }
    if (T.MainFileOnly)
      AST.setTraversalScope(MainDecls);
    if (Bodies)
      *Bodies = mainFileBodies(MainDecls, AST);
    if (Dump) {
      CheckContext &Ctx = *Targets.front().Ctx;
      Ctx.setASTContext(&AST);
      llvm::raw_string_ostream OS(*Dump);
      if (const ArchInfo *A = Ctx.arch())
        OS << "target " << A->Name << "\n";
      dumpAnalysis(AST, Ctx.affine(), Ctx.threadDependence(), OS);
      return;
    }
    Targets.front().Runner->run(AST);
    if (!Shared)
      return;
    Shared->OwnParsesBecause = whyOwnParses(AST);
    if (!Shared->OwnParsesBecause.empty())
      return;
    for (size_t I = 1; I < Targets.size(); ++I) {
      if (cancelled())
        return;
      Targets[I].Runner->run(AST);
    }
  }

  // The contexts of the targets judged on this parse, for the IR layer.
  std::vector<IRLayerTarget> judged(const DiagSink &Own) const {
    std::vector<IRLayerTarget> Out = {{Targets.front().Ctx.get(), &Own}};
    if (Shared && Shared->OwnParsesBecause.empty())
      for (size_t I = 1; I < Targets.size(); ++I)
        Out.push_back({Targets[I].Ctx.get(), Shared->Others[I - 1].Sink});
    return Out;
  }

private:
  bool cancelled() const { return T.Cancelled && T.Cancelled(); }

  // Why this parse cannot stand for the others' (empty: it can).
  std::string whyOwnParses(ASTContext &AST) const {
    if (!Shared->Watched.Where.empty())
      return "the code depends on the target: " + Shared->Watched.Where;
    // An error may be this target's alone, and another target's parse may
    // give errors this one does not.
    if (CI.getDiagnostics().hasErrorOccurred())
      return "the parse has errors";
    std::string Declared = userDeclaresFeatureName(AST);
    if (!Declared.empty())
      return "a name the newer targets' headers declare: " + Declared;
    return "";
  }

  CompilerInstance &CI;
  std::vector<TargetChecks> Targets; // the parse's own target first
  SharedParse *Shared;
  std::string *Dump;
  const FileTask &T;
  std::vector<BodySpan> *Bodies;
  FirstParseErrors *FirstErrors;
  std::vector<Decl *> MainDecls;
};

// What the checks get beyond the AST: ptxas's registers from nvcc running
// beside the parse, and the IR layer's optimised view.
class DriverServices : public RunServices {
public:
  DriverServices(ResourceUsageJob *Resources, const FileTask &T)
      : Resources(Resources), T(T) {}
  void setIRLayer(IRLayerConsumer *L) { IR = L; }

  const ir::OptimisedAccesses *optimisedAccesses(const ArchInfo &A) override {
    return IR ? IR->optimisedAccesses(A.Name) : nullptr;
  }
  std::optional<KernelResources> kernelResources(const ArchInfo &A,
                                                 llvm::StringRef Mangled,
                                                 std::string &Why) override {
    if (!Resources) {
      Why = T.NoPtxas.empty() ? "ptxas was not run" : T.NoPtxas;
      return std::nullopt;
    }
    if (!Resources->covers(A.Name)) {
      Why = "the installed nvcc does not compile for " + A.Name;
      return std::nullopt;
    }
    return Resources->lookup(A.Name, Mangled, Why);
  }
  std::optional<unsigned> maxRegisterCount() const override {
    return T.Flags.MaxRegCount;
  }

private:
  ResourceUsageJob *Resources;
  const FileTask &T;
  IRLayerConsumer *IR = nullptr;
};

class AnalysisAction : public ASTFrontendAction {
public:
  AnalysisAction(const FileTask &T, const ArchTable &Tables, Judged Own,
                 SharedParse *Shared, std::string *Dump,
                 ResourceUsageJob *Resources)
      : T(T), Tables(Tables), Own(Own), Shared(Shared), Dump(Dump),
        Services(Resources, T) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    std::vector<Judged> All = {Own};
    if (Shared) {
      All.insert(All.end(), Shared->Others.begin(), Shared->Others.end());
      CI.getPreprocessor().addPPCallbacks(
          watchTargetMacros(CI.getSourceManager(), CI.getLangOpts(),
                            Shared->Watched));
    }
    std::vector<TargetChecks> Targets;
    for (const Judged &J : All) {
      auto Ctx = std::make_unique<CheckContext>(Tables, J.Arch, T.Options,
                                                T.WarningsAsErrors, *J.Sink);
      Ctx->setServices(&Services);
      // The device parse sees host code too; a plain C++ parse has no
      // device code.
      auto Runner = std::make_unique<CheckRunner>(
          allChecks(), T.Checks,
          CI.getLangOpts().CUDAIsDevice ? CheckSide::Both : CheckSide::Host,
          *Ctx);
      Targets.push_back({std::move(Ctx), std::move(Runner)});
    }
    auto AST = std::make_unique<AnalysisConsumer>(
        CI, std::move(Targets), Shared, Dump, T, Bodies, FirstErrors);
    if (!wantsIRLayer(CI))
      return AST;
    // The same parse feeds the code generator, after the checks (or when
    // a memory check first asks what the optimiser left of its accesses).
    AnalysisConsumer &Checks = *AST;
    std::unique_ptr<IRLayerConsumer> IR = createIRLayerConsumer(
        CI, [&Checks, Sink = Own.Sink] { return Checks.judged(*Sink); },
        Shared ? &Shared->IRAnalysed : nullptr, T.IRBarrierCheck);
    Services.setIRLayer(IR.get());
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(std::move(AST));
    Both.push_back(std::move(IR));
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }

  // The main file's function definitions go to Out (the language server's
  // full pass).
  void collectBodies(std::vector<BodySpan> *Out) { Bodies = Out; }
  // Whether the errors lie only in host bodies go to Out.
  void collectFirstParseErrors(FirstParseErrors *Out) { FirstErrors = Out; }

protected:
  bool BeginInvocation(CompilerInstance &CI) override {
    // The focused pass: the parser asks the consumer which bodies to skip.
    if (T.SkipBody)
      CI.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }

private:
  bool wantsIRLayer(const CompilerInstance &CI) const {
    return Own.Arch && !Dump && T.IRLayer && CI.getLangOpts().CUDAIsDevice;
  }

  const FileTask &T;
  const ArchTable &Tables;
  Judged Own;
  SharedParse *Shared;
  std::string *Dump;
  DriverServices Services;
  std::vector<BodySpan> *Bodies = nullptr;
  FirstParseErrors *FirstErrors = nullptr;
};

// clang's CUDA wrapper header includes "cuda.h" for CUDA_VERSION, and a
// quoted include looks first in the includer's directory, then on the -I
// path: a project's own cuda.h there (Rodinia's util/cuda/cuda.h, next to
// the file and on -I) is taken for the toolkit's, and the parse fails with
// "cuda.h did not define CUDA_VERSION". nvcc never includes a cuda.h by
// itself. A cuda.h beside the wrapper, in memory, that includes the
// toolkit's by its path is what the wrapper finds first; the project's
// `#include "cuda.h"` still finds its own. The path, or empty where there
// is no toolkit or clang has a cuda.h of its own there.
std::string wrapperCudaHeader(const RunEnvironment &Env,
                              llvm::vfs::FileSystem &FS) {
  if (!Env.Toolkit.found() || Env.ResourceDir.empty())
    return "";
  llvm::SmallString<256> Path(Env.ResourceDir);
  llvm::sys::path::append(Path, "include", "cuda.h");
  return FS.exists(Path) ? "" : std::string(Path);
}

// FS with Files (path: contents) in memory over it. A relative path is
// FS's working directory's.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withFilesInMemory(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  const std::map<std::string, std::string> &Files) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  if (auto Cwd = FS->getCurrentWorkingDirectory())
    Memory->setCurrentWorkingDirectory(*Cwd);
  for (const auto &[Path, Text] : Files)
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(FS);
  Overlay->pushOverlay(Memory);
  return Overlay;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withWrapperCudaHeader(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      llvm::StringRef Path, const CudaToolkit &Toolkit) {
  llvm::SmallString<256> Real(Toolkit.Path);
  llvm::sys::path::append(Real, "include", "cuda.h");
  return withFilesInMemory(
      FS, {{Path.str(), "#include \"" + std::string(Real) + "\"\n"}});
}

// Every file a parse read (absolute paths, symlinks and '..' resolved), but
// Skip (a file only in memory).
std::vector<std::string> filesRead(FileManager &Files, llvm::StringRef Skip) {
  std::vector<std::string> Out;
  llvm::SmallVector<OptionalFileEntryRef, 64> Read;
  Files.GetUniqueIDMapping(Read);
  for (OptionalFileEntryRef F : Read) {
    if (!F)
      continue;
    // '..' cannot be dropped by hand (a/link/.. need not be a).
    llvm::SmallString<256> Path(F->getFileEntry().tryGetRealPathName());
    if (Path.empty()) {
      Path = F->getName();
      Files.makeAbsolutePath(Path);
    }
    if (Path != Skip)
      Out.push_back(std::string(Path));
  }
  llvm::sort(Out);
  Out.erase(llvm::unique(Out), Out.end());
  return Out;
}

// Whether the main file launches a kernel, by its text: a file without a
// launch (a header of kernels, device functions) needs no register counts.
bool mentionsLaunch(const FileTask &T, llvm::vfs::FileSystem &FS) {
  llvm::SmallString<256> Path(T.File);
  if (llvm::sys::path::is_relative(Path) && !T.Directory.empty())
    llvm::sys::path::make_absolute(T.Directory, Path);
  auto Buf = FS.getBufferForFile(Path, -1, /*RequiresNullTerminator=*/false,
                                 /*IsVolatile=*/false, /*IsText=*/true);
  if (!Buf)
    return false;
  llvm::StringRef Text = (*Buf)->getBuffer();
  return Text.contains("<<<") || Text.contains("cudaLaunch");
}

} // namespace

std::vector<std::string> buildParseArgs(const FileTask &T,
                                        const RunEnvironment &Env,
                                        const ArchInfo *Arch) {
  std::vector<std::string> Args = {"clang++"};
  Args.insert(Args.end(), T.Flags.Args.begin(), T.Flags.Args.end());
  Args.push_back("-fsyntax-only");
  Args.push_back("-resource-dir");
  Args.push_back(Env.ResourceDir);
  if (!T.Directory.empty()) {
    Args.push_back("-working-directory");
    Args.push_back(T.Directory);
  }
  if (Arch) {
    // One device-side parse: it sees kernels and host code alike, at half
    // the cost of clang's default host+device pair.
    Args.insert(Args.end(),
                {"-x", "cuda", "--cuda-device-only",
                 "--cuda-gpu-arch=" + Arch->Name, "--no-cuda-version-check",
                 "-Wno-unknown-cuda-version", "-nogpulib",
                 "-fno-caret-diagnostics"});
    // A device-only parse does not tell Sema the toolkit's version, and
    // without it clang lowers <<<...>>> to the pre-9.2 cudaConfigureCall,
    // which CUDA 13's headers no longer declare.
    std::string Sdk = Env.Toolkit.found() && !Env.Toolkit.Version.empty()
                          ? Env.Toolkit.Version
                          : "12.0"; // what the fallback header declares
    Args.insert(Args.end(), {"-Xclang", "-target-sdk-version=" + Sdk});
    if (Env.Toolkit.found()) {
      Args.push_back("--cuda-path=" + Env.Toolkit.Path);
      // CUDA 13 keeps CCCL (cub, thrust, libcu++) here; nvcc adds it itself.
      llvm::SmallString<256> Cccl(Env.Toolkit.Path);
      llvm::sys::path::append(Cccl, "include", "cccl");
      if (llvm::sys::fs::is_directory(Cccl)) {
        Args.push_back("-isystem");
        Args.push_back(std::string(Cccl));
      }
    } else {
      Args.insert(Args.end(), {"-nocudainc", "-isystem", Env.FallbackDir,
                               "-include", "warplint_cuda_fallback.h"});
    }
    // The features the target lacks, by the rule table: the header declares
    // what the CUDA headers leave out for them, so that a call to one is
    // arch-unsupported-feature's finding rather than a failed parse.
    for (auto [Feature, Has] : Arch->features())
      if (!Has)
        Args.push_back(("-D__warplint_lacks_" + Feature).str());
    if (!Env.FeatureHeader.empty())
      Args.insert(Args.end(), {"-include", Env.FeatureHeader});
    // What nvcc's headers declare for host code and clang's do not (host
    // min/max): a host function that calls one must not fail the parse.
    if (!Env.CompatHeader.empty())
      Args.insert(Args.end(), {"-include", Env.CompatHeader});
  }
  // The user's spelling of the file, unless the compile command runs in
  // another directory (a compile database): then its absolute path.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (llvm::sys::path::is_relative(T.File) && !T.Directory.empty() &&
      T.Directory != Cwd.str()) {
    llvm::SmallString<256> Abs(Cwd);
    llvm::sys::path::append(Abs, T.File);
    llvm::sys::path::remove_dots(Abs, true);
    Args.push_back(std::string(Abs));
  } else {
    Args.push_back(T.File);
  }
  return Args;
}

std::unique_ptr<DiagnosticConsumer> createErrorCollector(DiagSink &Sink,
                                                         llvm::StringRef File) {
  return std::make_unique<ErrorCollector>(Sink, File);
}

FileResult runFile(const FileTask &T, const RunEnvironment &Env,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                   PreambleCache *Preambles) {
  FileResult R;
  if (!T.Flags.Dropped.empty()) {
    std::string List;
    for (const std::string &D : T.Flags.Dropped)
      List += (List.empty() ? "" : " ") + D;
    R.Warnings.push_back(T.File +
                         ": ignored compile flags warplint cannot "
                         "translate: " +
                         List);
  }
  if (!FS)
    FS = llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
        llvm::vfs::createPhysicalFileSystem().release());
  std::string WrapperCudaH =
      T.Flags.IsCuda ? wrapperCudaHeader(Env, *FS) : std::string();
  if (!WrapperCudaH.empty())
    FS = withWrapperCudaHeader(FS, WrapperCudaH, Env.Toolkit);
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), FS));

  std::vector<const ArchInfo *> Targets = T.Archs;
  if (!T.Flags.IsCuda)
    Targets = {nullptr}; // plain C++: one host parse, host-side checks only
  // Register counts for launch-occupancy: nvcc runs beside the parses.
  std::unique_ptr<ResourceUsageJob> Resources;
  if (T.Flags.IsCuda && !T.Nvcc.empty() && !T.DumpAnalysis &&
      T.ResourceUsage && mentionsLaunch(T, *FS))
    Resources = ResourceUsageJob::start(T, T.Nvcc, T.ResourceCacheDir);

  // Each target's findings and errors, gathered in the order of the targets
  // whichever parse judged them, so that one parse reports what a parse per
  // target does.
  std::vector<DiagSink> Sinks(Targets.size());
  auto Gather = [&] {
    for (DiagSink &S : Sinks)
      R.Sink.append(std::move(S));
  };
  // Parses Targets[I], judging the others of Shared on it too. False when it
  // crashed (reported).
  auto ParseOnce = [&](size_t I, SharedParse *Shared, const FileTask &Task,
                       FirstParseErrors *FirstErrors,
                       FileManager *ParseFiles = nullptr) {
    if (!ParseFiles)
      ParseFiles = Files.get();
    const ArchInfo *Arch = Targets[I];
    // Heap objects, so that after a contained crash they can be abandoned
    // rather than destroyed half-way through their work.
    auto Errors =
        std::make_unique<ErrorCollector>(Sinks[I], T.File, FirstErrors);
    std::vector<std::string> Args = buildParseArgs(Task, Env, Arch);
    auto Action = std::make_unique<AnalysisAction>(
        Task, *Env.Tables, Judged{Arch, &Sinks[I]}, Shared,
        T.DumpAnalysis ? &R.Dump : nullptr, Resources.get());
    if (T.MainFileOnly && !T.SkipBody && I == 0)
      Action->collectBodies(&R.Bodies);
    if (FirstErrors)
      Action->collectFirstParseErrors(FirstErrors);
    std::unique_ptr<tooling::ToolInvocation> Invocation;
    if (!Preambles) {
      Invocation = std::make_unique<tooling::ToolInvocation>(
          Args, std::move(Action), ParseFiles);
      Invocation->setDiagnosticConsumer(Errors.get());
    }
    auto Parse = [&] {
      if (!Preambles) {
        Invocation->run();
        return;
      }
      if (!Preambles->parse(Args, std::move(Action), FS, *Errors, Sinks[I])) {
        ToolError E;
        E.Loc.File = T.File;
        E.Message = "cannot make a compiler invocation of the compile command";
        Sinks[I].reportError(std::move(E));
      }
    };
    // A TU with errors still gets the findings of what parsed; the errors
    // themselves go to the sink, merged across targets. A crash in the
    // parser or in a check is contained: this file gets an error, the other
    // files are still analysed. The parse runs on a thread of its own with
    // a stack deep enough for the walks of a deep expression (Budget.h).
    llvm::CrashRecoveryContext CRC;
    if (CRC.RunSafelyOnThread(Parse, AnalysisStackSize))
      return true;
    (void)Invocation.release();
    (void)Errors.release();
    ParseFiles->Retain();
    ToolError E;
    E.Loc.File = T.File;
    E.Message = "internal error: warplint crashed while analysing this file" +
                std::string(Arch ? " for " + Arch->Name : "") +
                "; its findings are incomplete (please report this)";
    E.Crashed = true;
    Sinks[I].reportError(std::move(E));
    return false;
  };
  // Parses Targets[I]; once more when its errors call for it
  // (FirstParseErrors above). Not for the language server, whose preambles
  // and focused passes have their own bodies.
  auto ParseFor = [&](size_t I, SharedParse *Shared) {
    if (Preambles || T.MainFileOnly || T.SkipBody || T.DumpAnalysis ||
        !T.Flags.IsCuda)
      return ParseOnce(I, Shared, T, nullptr);
    FirstParseErrors FirstErrors;
    if (!ParseOnce(I, Shared, T, &FirstErrors))
      return false;
    // Forgets the first parse's findings (and its errors unless KeepErrors)
    // for a second.
    auto Forget = [&](bool KeepErrors) {
      std::vector<ToolError> Errors =
          KeepErrors ? Sinks[I].errors() : std::vector<ToolError>();
      Sinks[I] = DiagSink();
      for (ToolError &E : Errors)
        Sinks[I].reportError(std::move(E));
      if (Shared) { // as before the first parse, the targets it stands for kept
        SharedParse Fresh;
        Fresh.Others = std::move(Shared->Others);
        *Shared = std::move(Fresh);
      }
    };
    auto Warn = [&](const std::string &Warning) {
      if (!llvm::is_contained(R.Warnings, Warning))
        R.Warnings.push_back(Warning);
    };
    switch (FirstErrors.recovery()) {
    case FirstParseErrors::Recovery::None:
      return true;
    case FirstParseErrors::Recovery::Rdc: {
      // The compile command lacks the flag its build must have. The errors
      // stand, as nvcc's would; the findings are those of the code as that
      // build compiles it.
      Warn(FirstErrors.NeedsRdc +
           ": a kernel launched from device code needs relocatable device "
           "code (nvcc -rdc=true, clang -fgpu-rdc), which the compile command "
           "does not ask for; the file was analysed as with -fgpu-rdc");
      FileTask WithRdc = T;
      WithRdc.Flags.Args.push_back("-fgpu-rdc");
      Forget(/*KeepErrors=*/true);
      return ParseOnce(I, Shared, WithRdc, nullptr);
    }
    case FirstParseErrors::Recovery::AsmEscapes: {
      // Each `%name` written `%%name`, which is what ptxas receives; the
      // errors become warnings.
      std::map<std::string, std::vector<unsigned>> Percents;
      for (const FirstParseErrors::AsmEscape &A : FirstErrors.AsmEscapes)
        Percents[A.Path].push_back(A.Percent);
      std::map<std::string, std::string> Escaped;
      for (auto &[Path, At] : Percents) {
        auto Buffer = FS->getBufferForFile(Path);
        if (!Buffer)
          return true; // the errors stand
        std::string Text = (*Buffer)->getBuffer().str();
        llvm::sort(At, std::greater<unsigned>());
        for (unsigned P : llvm::make_range(At.begin(), llvm::unique(At)))
          Text.insert(P, 1, '%');
        Escaped[Path] = std::move(Text);
      }
      for (const FirstParseErrors::AsmEscape &A : FirstErrors.AsmEscapes)
        Warn(A.Warning);
      llvm::IntrusiveRefCntPtr<FileManager> EscapedFiles(
          new FileManager(FileSystemOptions(), withFilesInMemory(FS, Escaped)));
      Forget(/*KeepErrors=*/false);
      return ParseOnce(I, Shared, T, nullptr, EscapedFiles.get());
    }
    case FirstParseErrors::Recovery::SkipHostBodies: {
      FileTask Without = T;
      llvm::DenseSet<unsigned> Skipped;
      for (const auto &[Name, Warning] : FirstErrors.Broken) {
        Skipped.insert(Name);
        Warn(Warning);
      }
      Without.SkipBody = [Skipped](unsigned Name) {
        return Skipped.contains(Name);
      };
      // The errors stand (the TU does not compile as clang reads it: exit
      // 2); the findings come from the parse without them.
      Forget(/*KeepErrors=*/true);
      return ParseOnce(I, Shared, Without, nullptr);
    }
    }
    return true;
  };

  std::vector<size_t> Parses;
  for (size_t I = 0; I < Targets.size(); ++I)
    Parses.push_back(I);
  // One parse for every target where it gives what a parse each would
  // (Driver/OneParse.h); the language server's preambles hide the
  // directives of the #include region from the preprocessor's callbacks,
  // and --dump-analysis prints each target's own parse.
  const ArchInfo *OneFor = T.OneParse && T.Flags.IsCuda && Targets.size() > 1 &&
                                   !Preambles && !T.DumpAnalysis
                               ? oneParseTarget(Targets)
                               : nullptr;
  if (!OneFor)
    R.Parses = Targets.size() > 1 ? "a parse per target" : "one parse";
  if (OneFor) {
    size_t Own = llvm::find(Targets, OneFor) - Targets.begin();
    SharedParse Shared;
    for (size_t I = 0; I < Targets.size(); ++I)
      if (I != Own)
        Shared.Others.push_back({Targets[I], &Sinks[I]});
    if (!ParseFor(Own, &Shared)) {
      Gather();
      return R;
    }
    // The code generator may fail for the oldest target alone (a builtin
    // it lacks): the others' IR findings then need their own parses.
    if (Shared.OwnParsesBecause.empty() && !T.IRBarrierCheck.empty() && !Shared.IRAnalysed)
      Shared.OwnParsesBecause = "the IR layer's code generation failed";
    llvm::erase(Parses, Own);
    if (Shared.OwnParsesBecause.empty()) {
      Parses.clear();
      R.Parses = "one parse, for " + OneFor->Name;
    } else {
      for (size_t I : Parses)
        Sinks[I] = DiagSink();
      R.Parses = "a parse per target: " + Shared.OwnParsesBecause;
    }
  }
  for (size_t I : Parses) {
    if (T.Cancelled && T.Cancelled())
      break;
    if (!ParseFor(I, nullptr)) {
      Gather();
      return R;
    }
  }
  Gather();
  R.Sink.mergeTargets();
  if (T.RecordDependencies || (Resources && Resources->wantsDependencies())) {
    R.Dependencies = filesRead(*Files, WrapperCudaH);
    if (Resources)
      Resources->finish(R.Dependencies);
    if (!T.RecordDependencies)
      R.Dependencies.clear();
  }
  return R;
}

} // namespace warplint
