// The checks of each target a parse is judged for, run over its AST, and the
// IR layer fed by the same parse (AnalysisAction.h).
#include "Driver/AnalysisAction.h"
#include "Analysis/CallGraph.h"
#include "Analysis/Launches.h"
#include "Driver/ParseInputs.h"
#include "Driver/ParseRecovery.h"
#include "Driver/Preamble.h"
#include "IR/Report.h"
#include "checks/Registry.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warplint {

namespace {

// The checks of one target over a parse.
struct TargetChecks {
  std::unique_ptr<CheckContext> Ctx;
  std::unique_ptr<CheckRunner> Runner;
};

class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(CompilerInstance &CI, std::vector<TargetChecks> Targets,
                   SharedParse *Shared, std::string *Dump, const FileTask &T,
                   std::vector<BodySpan> *Bodies, FirstParseErrors *FirstErrors,
                   std::vector<std::pair<std::string, std::string>> *Launched,
                   std::vector<DiagSink *> Sinks,
                   std::map<std::string, unsigned> *Withheld)
      : CI(CI), Targets(std::move(Targets)), Shared(Shared), Dump(Dump), T(T),
        Bodies(Bodies), FirstErrors(FirstErrors), Launched(Launched),
        Sinks(std::move(Sinks)), Withheld(Withheld) {}

  bool shouldSkipFunctionBody(Decl *D) override {
    const SourceManager &SM = CI.getSourceManager();
    if (skippableSystemBody(D, SM))
      return true;
    if (!T.SkipBody)
      return false;
    SourceLocation Name = D->getLocation();
    return Name.isFileID() && SM.isInMainFile(Name) &&
           T.SkipBody(SM.getFileOffset(Name));
  }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    // With a preamble: once its reader is Sema's external source.
    if (!DeferredRootsGated && CI.hasSema() && CI.getSema().ExternalSource) {
      DeferredRootsGated = true;
      readPreambleDeferredDiagRootsOnlyWhenNeeded(CI.getSema());
    }
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
    if (Launched)
      recordLaunches(AST);
    if (Shared) {
      Shared->OwnParsesBecause = whyOwnParses(AST);
      for (size_t I = 1; I < Targets.size(); ++I) {
        if (cancelled())
          return;
        if (Shared->judges(I - 1))
          Targets[I].Runner->run(AST);
      }
    }
    if (Withheld && CI.getDiagnostics().hasErrorOccurred())
      withholdBrokenParseFindings(Sinks, *Withheld);
    // Without the IR layer's barrier verdicts, the AST layer's say so.
    if (T.IRBarrierCheck.empty())
      for (DiagSink *S : Sinks)
        for (Finding &F : S->findings())
          if (F.Check == "divergence-barrier" &&
              llvm::StringRef(F.Message).contains(ir::PartialReachWords))
            F.Message += ir::IRLayerOffWords.str();
  }

  // The contexts of the targets judged on this parse, for the IR layer.
  std::vector<IRLayerTarget> judged(DiagSink &Own) const {
    std::vector<IRLayerTarget> Out = {{Targets.front().Ctx.get(), &Own}};
    if (Shared)
      for (size_t I = 1; I < Targets.size(); ++I)
        if (Shared->judges(I - 1))
          Out.push_back({Targets[I].Ctx.get(), Shared->Others[I - 1].Sink});
    return Out;
  }

private:
  bool cancelled() const { return T.Cancelled && T.Cancelled(); }

  // Each kernel a launch names, and the functions it calls (through the
  // TU's call graph), by the name their findings carry
  // (Finding::Function) and the file of their definition: the code this
  // TU judges with the launch's shape.
  void recordLaunches(ASTContext &AST) {
    const SourceManager &SM = AST.getSourceManager();
    CheckContext &Ctx = *Targets.front().Ctx;
    Ctx.setASTContext(&AST);
    const CallGraphView &Calls = Ctx.callGraph();
    llvm::SmallVector<const FunctionDecl *, 16> Work;
    llvm::DenseSet<const FunctionDecl *> Seen;
    for (const CallExpr *L : userLaunches(AST))
      if (const FunctionDecl *K = launchSite(L).Kernel)
        if (Seen.insert(K).second)
          Work.push_back(K);
    // A budget, as every walk of the call graph has one: a TU with more
    // reachable functions than this records the first ones.
    constexpr size_t MaxReached = 4096;
    while (!Work.empty() && Seen.size() < MaxReached) {
      const FunctionDecl *F = Work.pop_back_val();
      record(F, SM);
      for (const CallSite &C : Calls.callees(F))
        if (C.Callee && !SM.isInSystemHeader(C.Callee->getLocation()) &&
            Seen.insert(C.Callee).second)
          Work.push_back(C.Callee);
    }
  }

  void record(const FunctionDecl *F, const SourceManager &SM) {
    const FunctionDecl *Def = F;
    if (const FunctionDecl *P = Def->getTemplateInstantiationPattern())
      Def = P;
    if (const FunctionDecl *D = Def->getDefinition())
      Def = D;
    SourceLocation Loc = SM.getFileLoc(Def->getLocation());
    auto Ref = SM.getFileEntryRefForID(SM.getFileID(Loc));
    if (!Ref)
      return;
    std::pair<std::string, std::string> K = {Def->getQualifiedNameAsString(),
                                             Ref->getName().str()};
    auto It = llvm::lower_bound(*Launched, K);
    if (It == Launched->end() || *It != K)
      Launched->insert(It, std::move(K));
  }

  // Why this parse cannot stand for the others' (empty: it can).
  std::string whyOwnParses(ASTContext &AST) const {
    std::string Why;
    // An error may be this target's alone, and another target's parse may
    // give errors this one does not.
    if (CI.getDiagnostics().hasErrorOccurred())
      Why = "the parse has errors";
    else if (std::string Declared = userDeclaresFeatureName(AST);
             !Declared.empty())
      Why = "a name the newer targets' headers declare: " + Declared;
    if (Shared->Watched.Where.empty())
      return Why;
    std::string Depends =
        "the code depends on the target: " + Shared->Watched.Where;
    if (!Why.empty() || !Shared->UserCodeAlike)
      return Depends;
    // The use of a target macro may give other targets the same code: the
    // preprocessor's output for each says. The parse stands for those.
    Shared->JudgedHere = Shared->UserCodeAlike(Shared->Watched);
    return llvm::all_of(Shared->JudgedHere, [](bool B) { return B; }) ? ""
                                                                      : Depends;
  }

  CompilerInstance &CI;
  std::vector<TargetChecks> Targets; // the parse's own target first
  SharedParse *Shared;
  std::string *Dump;
  const FileTask &T;
  std::vector<BodySpan> *Bodies;
  FirstParseErrors *FirstErrors;
  std::vector<std::pair<std::string, std::string>> *Launched;
  std::vector<Decl *> MainDecls;
  bool DeferredRootsGated = false;
  std::vector<DiagSink *> Sinks; // the targets' judged on this parse
  std::map<std::string, unsigned> *Withheld;
};

} // namespace

void withholdBrokenParseFindings(const std::vector<DiagSink *> &Sinks,
                                 std::map<std::string, unsigned> &Withheld) {
  static const llvm::StringRef Synchronisation[] = {
      "divergence-barrier", "warp-mask-divergent", "warp-implicit-sync"};
  for (DiagSink *Sink : Sinks)
    llvm::erase_if(Sink->findings(), [&](const Finding &F) {
      if (!llvm::is_contained(Synchronisation, F.Check))
        return false;
      ++Withheld[F.Check];
      return true;
    });
}

std::string withheldWarning(const std::map<std::string, unsigned> &Withheld) {
  std::string Counts;
  unsigned Total = 0;
  for (const auto &[Check, N] : Withheld) {
    Counts += (Counts.empty() ? "" : ", ") + std::to_string(N) + " " + Check;
    Total += N;
  }
  return Counts + (Total == 1 ? " finding" : " findings") +
         " withheld: the file does not compile, and what the errors cut "
         "short (a header not found, a template not instantiated, a body "
         "not parsed) may hold the synchronisation they would see; fix the "
         "errors (an include path or a define the build passes?) and run "
         "again";
}

std::unique_ptr<ASTConsumer>
AnalysisAction::CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) {
  std::vector<Judged> All = {Own};
  if (Shared) {
    All.insert(All.end(), Shared->Others.begin(), Shared->Others.end());
    CI.getPreprocessor().addPPCallbacks(watchTargetMacros(
        CI.getSourceManager(), CI.getLangOpts(), Shared->Watched));
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
    // The per-lane engine (thread dependence, lane values, warp traces)
    // depends on the AST and the warp size, not on the target: built once
    // for the targets of the parse.
    if (!Targets.empty() && J.Arch && Targets.front().Ctx->arch() &&
        J.Arch->warp_size == Targets.front().Ctx->arch()->warp_size)
      Ctx->shareEngineOf(*Targets.front().Ctx);
    Targets.push_back({std::move(Ctx), std::move(Runner)});
  }
  std::vector<DiagSink *> Sinks;
  for (const Judged &J : All)
    Sinks.push_back(J.Sink);
  auto AST = std::make_unique<AnalysisConsumer>(
      CI, std::move(Targets), Shared, Dump, T, Bodies, FirstErrors, Launched,
      std::move(Sinks), Withheld);
  if (!wantsIRLayer(CI))
    return AST;
  // The same parse feeds the code generator, after the checks (or when
  // a memory check first asks what the optimiser left of its accesses).
  AnalysisConsumer &Checks = *AST;
  std::unique_ptr<IRLayerConsumer> IR = createIRLayerConsumer(
      CI, [&Checks, Sink = Own.Sink] { return Checks.judged(*Sink); },
      Shared ? &Shared->IRAnalysed : nullptr, T.IRBarrierCheck, IRFailure,
      {T.Ptxas, T.Libdevice, T.ResourceCacheDir});
  Services.setIRLayer(IR.get());
  std::vector<std::unique_ptr<ASTConsumer>> Both;
  Both.push_back(std::move(AST));
  Both.push_back(std::move(IR));
  return std::make_unique<MultiplexConsumer>(std::move(Both));
}

} // namespace warplint
