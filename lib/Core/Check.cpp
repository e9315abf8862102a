#include "Core/Check.h"
#include "Analysis/Launches.h"
#include "Support/Hashing.h"
#include "Support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>
#include <functional>

using namespace clang;

namespace warplint {

// ---------------------------------------------------------------- builder

FindingBuilder::FindingBuilder(CheckContext &Ctx, llvm::StringRef CheckId,
                               SourceLocation Loc, llvm::StringRef Format,
                               Severity Level)
    : Ctx(&Ctx), CheckId(CheckId.str()), Loc(Loc), Format(Format.str()),
      Level(Level) {}

FindingBuilder::FindingBuilder(llvm::StringRef CheckId, SourceLocation Loc,
                               llvm::StringRef Format)
    : Ctx(nullptr), CheckId(CheckId.str()), Loc(Loc), Format(Format.str()),
      Level(Severity::Note) {}

FindingBuilder::FindingBuilder(FindingBuilder &&O)
    : Ctx(O.Ctx), CheckId(std::move(O.CheckId)), Loc(O.Loc),
      Format(std::move(O.Format)), Level(O.Level), Args(std::move(O.Args)),
      ArgIsPerTarget(std::move(O.ArgIsPerTarget)), Fixes(std::move(O.Fixes)),
      Metrics(std::move(O.Metrics)), Notes(std::move(O.Notes)) {
  O.Ctx = nullptr;
}

FindingBuilder::~FindingBuilder() {
  if (Ctx)
    Ctx->emit(*this);
}

FindingBuilder &FindingBuilder::operator<<(llvm::StringRef S) {
  Args.push_back(S.str());
  ArgIsPerTarget.push_back(false);
  return *this;
}
FindingBuilder &FindingBuilder::operator<<(int64_t V) {
  return *this << llvm::StringRef(llvm::itostr(V));
}
FindingBuilder &FindingBuilder::operator<<(const PerTarget &V) {
  *this << llvm::StringRef(V.Text);
  ArgIsPerTarget.back() = true;
  return *this;
}
FindingBuilder &FindingBuilder::operator<<(const NamedDecl *D) {
  return *this << llvm::StringRef("'" + D->getQualifiedNameAsString() + "'");
}
FindingBuilder &FindingBuilder::operator<<(const FixItHint &Fix) {
  Fixes.push_back(Fix);
  return *this;
}
FindingBuilder &FindingBuilder::metric(llvm::StringRef Name, double Value) {
  Metrics.emplace_back(Name.str(), Value);
  return *this;
}
FindingBuilder &FindingBuilder::note(SourceLocation Loc,
                                     llvm::StringRef Format) {
  Notes.push_back(std::unique_ptr<FindingBuilder>(
      new FindingBuilder(CheckId, Loc, Format)));
  return *Notes.back();
}

// The message, and where the per-target values stand in it: Format in
// llvm::formatv's syntax ({0}, {1}, ...; {{ for a brace), its arguments
// known only at run time.
static std::string
formatMessage(llvm::StringRef Format, const std::vector<std::string> &Args,
              const std::vector<bool> &PerTargetArg,
              std::vector<std::pair<size_t, size_t>> &Spans) {
  std::string Out;
  for (const llvm::ReplacementItem &R :
       llvm::formatv_object_base::parseFormatString(Format, Args.size(),
                                                    /*Validate=*/false)) {
    if (R.Type != llvm::ReplacementType::Format) {
      Out += R.Spec;
      continue;
    }
    if (R.Index >= Args.size()) {
      Out += "<?>";
      continue;
    }
    if (PerTargetArg[R.Index])
      Spans.emplace_back(Out.size(), Args[R.Index].size());
    Out += Args[R.Index];
  }
  return Out;
}

// ---------------------------------------------------------------- options

std::string OptionsView::get(llvm::StringRef Name,
                             llvm::StringRef Default) const {
  auto It = Options.find(Prefix + Name.str());
  return It == Options.end() ? Default.str() : It->second;
}
int64_t OptionsView::get(llvm::StringRef Name, int64_t Default) const {
  int64_t V;
  auto It = Options.find(Prefix + Name.str());
  if (It == Options.end() || llvm::StringRef(It->second).getAsInteger(10, V))
    return Default;
  return V;
}
bool OptionsView::get(llvm::StringRef Name, bool Default) const {
  auto It = Options.find(Prefix + Name.str());
  if (It == Options.end())
    return Default;
  llvm::StringRef V = It->second;
  return V.equals_insensitive("true") || V == "1";
}

// ---------------------------------------------------------------- context

CheckContext::CheckContext(const ArchTable &Tables, const ArchInfo *Arch,
                           const CheckOptionMap &Options,
                           const GlobList &WarningsAsErrors, DiagSink &Sink)
    : Tables(Tables), Arch(Arch), Options(Options),
      WarningsAsErrors(WarningsAsErrors), Sink(Sink) {}

void CheckContext::setASTContext(ASTContext *Ctx) {
  AST = Ctx;
  TopLevelOf = nullptr;
  TopLevel.clear();
}
SourceManager &CheckContext::sourceManager() const {
  return AST->getSourceManager();
}
const LangOptions &CheckContext::langOpts() const { return AST->getLangOpts(); }

LaneEngine &CheckContext::engine() {
  if (EngineOf) {
    if (!EngineOf->AST)
      EngineOf->AST = AST;
    return EngineOf->engine();
  }
  if (!Engine)
    Engine = std::make_unique<LaneEngine>(*AST, Arch ? Arch->warp_size : 32);
  return *Engine;
}

std::string CheckContext::sourceText(const Stmt *S, size_t MaxLen) const {
  return messageText(S, *AST, MaxLen);
}

Location CheckContext::toLocation(SourceLocation Loc) const {
  Location Out;
  if (Loc.isInvalid())
    return Out;
  const SourceManager &SM = sourceManager();
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (auto Ref = SM.getFileEntryRefForID(SM.getFileID(FileLoc)))
    Out.File = Ref->getName().str();
  Out.Line = SM.getSpellingLineNumber(FileLoc);
  Out.Column = SM.getSpellingColumnNumber(FileLoc);
  return Out;
}

const NoLintIndex *CheckContext::noLintFor(FileID FID) {
  auto &Slot = NoLint[FID];
  if (!Slot) {
    bool Invalid = false;
    llvm::StringRef Buf = sourceManager().getBufferData(FID, &Invalid);
    Slot = std::make_unique<NoLintIndex>(Invalid ? llvm::StringRef() : Buf);
  }
  return Slot.get();
}

bool CheckContext::isSuppressed(SourceLocation Loc, llvm::StringRef CheckId) {
  const SourceManager &SM = sourceManager();
  // The line the finding is shown on, and for macros also the line the macro
  // was expanded on, as clang-tidy does.
  for (SourceLocation L : {SM.getFileLoc(Loc), SM.getExpansionLoc(Loc)}) {
    FileID FID = SM.getFileID(L);
    if (noLintFor(FID)->suppresses(SM.getSpellingLineNumber(L), CheckId))
      return true;
  }
  return false;
}

void CheckContext::emit(FindingBuilder &B) {
  std::vector<std::pair<size_t, size_t>> Spans;
  std::string Message =
      formatMessage(B.Format, B.Args, B.ArgIsPerTarget, Spans);
  const SourceManager &SM = sourceManager();

  if (B.Loc.isInvalid())
    return;
  SourceLocation FileLoc = SM.getFileLoc(B.Loc);
  if (SM.isInSystemHeader(FileLoc) ||
      !SM.getFileEntryRefForID(SM.getFileID(FileLoc)))
    return;
  if (isSuppressed(B.Loc, B.CheckId))
    return;

  Finding F;
  F.Check = B.CheckId;
  F.Level = B.Level;
  F.Loc = toLocation(B.Loc);
  F.Message = std::move(Message);
  F.Function = enclosingFunction(FileLoc);
  if (Arch)
    F.Archs = {Arch->Name};
  F.Metrics = std::move(B.Metrics);
  F.TargetSpans = std::move(Spans);
  F.PromotedToError =
      F.Level == Severity::Warning && WarningsAsErrors.contains(F.Check);
  for (const std::unique_ptr<FindingBuilder> &N : B.Notes) {
    std::vector<std::pair<size_t, size_t>> NoSpans;
    F.Notes.push_back(
        {toLocation(N->Loc),
         formatMessage(N->Format, N->Args, N->ArgIsPerTarget, NoSpans)});
  }

  for (const FixItHint &Hint : B.Fixes) {
    if (Hint.RemoveRange.isInvalid())
      continue;
    tooling::Replacement R(SM, Hint.RemoveRange, Hint.CodeToInsert, langOpts());
    if (R.getFilePath().empty() || R.getFilePath() == "<invalid-loc>") {
      F.Fixes.clear(); // a fix that cannot be applied whole is not offered
      break;
    }
    llvm::SmallString<256> Path(R.getFilePath());
    SM.getFileManager().makeAbsolutePath(Path);
    F.Fixes.push_back({std::string(Path), R.getOffset(), R.getLength(),
                       R.getReplacementText().str(),
                       contentHashOf(SM.getFileID(
                           SM.getSpellingLoc(Hint.RemoveRange.getBegin())))});
  }
  Sink.report(std::move(F));
}

const std::string &CheckContext::contentHashOf(FileID FID) {
  std::string &Slot = ContentHashes[FID];
  if (Slot.empty()) {
    bool Invalid = false;
    llvm::StringRef Buf = sourceManager().getBufferData(FID, &Invalid);
    if (!Invalid)
      Slot = hexHash(llvm::xxh3_64bits(Buf));
  }
  return Slot;
}

// The function whose body holds Loc: a walk down the declarations whose
// range holds it, skipping the system headers' (most of a CUB TU).
std::string CheckContext::enclosingFunction(SourceLocation Loc) const {
  if (!AST)
    return "";
  const SourceManager &SM = sourceManager();
  auto Holds = [&](const Decl *D) {
    SourceRange R = D->getSourceRange();
    if (R.isInvalid())
      return false;
    SourceLocation B = SM.getFileLoc(R.getBegin()),
                   E = SM.getFileLoc(R.getEnd());
    return !SM.isBeforeInTranslationUnit(Loc, B) &&
           !SM.isBeforeInTranslationUnit(E, Loc);
  };
  std::string Found;
  // Whether D holds Loc: then Found is its function, or the walk went into
  // it.
  std::function<void(const DeclContext *)> Walk;
  auto Enter = [&](const Decl *D) {
    if (D->getLocation().isInvalid() ||
        SM.isInSystemHeader(SM.getFileLoc(D->getLocation())) || !Holds(D))
      return false;
    const Decl *Inner = D;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      Inner = T->getTemplatedDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(Inner);
        FD && FD->doesThisDeclarationHaveABody()) {
      Found = FD->getQualifiedNameAsString();
      return true;
    }
    if (const auto *T = dyn_cast<ClassTemplateDecl>(D))
      Inner = T->getTemplatedDecl();
    if (const auto *Inside = dyn_cast<DeclContext>(Inner)) {
      Walk(Inside);
      return true;
    }
    return false;
  };
  Walk = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls())
      if (Enter(D))
        return;
  };
  // The traversal scope: the whole TU, or the language server's main-file
  // declarations.
  for (const Decl *D : AST->getTraversalScope()) {
    if (const auto *TU = dyn_cast<TranslationUnitDecl>(D)) {
      // The TU's own declarations, listed once per AST: the tens of
      // thousands of the toolkit's headers hold no user function, and
      // asking each of them again for every finding cost a file of many
      // findings a few percent of its run.
      if (TopLevelOf != AST) {
        TopLevel.clear();
        for (const Decl *Top : TU->decls())
          if (Top->getLocation().isValid() &&
              !SM.isInSystemHeader(SM.getFileLoc(Top->getLocation())))
            TopLevel.push_back(Top);
        TopLevelOf = AST;
      }
      for (const Decl *Top : TopLevel)
        if (Enter(Top))
          break;
      break;
    }
    if (Enter(D))
      break;
  }
  return Found;
}

void CheckContext::reportNoLintProblems() {
  const SourceManager &SM = sourceManager();
  noLintFor(SM.getMainFileID());
  for (auto &[FID, Index] : NoLint) {
    auto Ref = SM.getFileEntryRefForID(FID);
    if (!Ref || SM.isInSystemHeader(SM.getLocForStartOfFile(FID)))
      continue;
    for (const NoLintIndex::Problem &P : Index->problems()) {
      Finding F;
      F.Check = NoLintCheckId.str();
      F.Level = Severity::Error;
      F.Loc = {Ref->getName().str(), P.Line, P.Column};
      F.Message = P.Message;
      Sink.report(std::move(F));
    }
  }
}

// ---------------------------------------------------------------- checks

namespace {
// Crash containment is tested with a check that crashes on purpose:
// $WARPLINT_TEST_CRASH_IN_CHECK names it (test-only; never set in use).
bool crashRequested(llvm::StringRef Id) {
  static const std::string Named = [] {
    const char *V = std::getenv("WARPLINT_TEST_CRASH_IN_CHECK");
    return std::string(V ? V : "");
  }();
  return !Named.empty() && Named == Id;
}
} // namespace

void Check::run(const ast_matchers::MatchFinder::MatchResult &R) {
  if (LLVM_UNLIKELY(crashRequested(Name)))
    LLVM_BUILTIN_TRAP;
  check(R);
}

FindingBuilder &FindingBuilder::noteMacroOrigin(const Stmt *S) {
  if (Ctx)
    if (std::optional<MacroOrigin> M = macroOrigin(S, Ctx->astContext()))
      note(M->Spelling, "expanded from macro '{0}'") << M->Name;
  return *this;
}

// ---------------------------------------------------------------- functions

void FunctionCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  using namespace ast_matchers;
  auto Defined = functionDecl(isDefinition(), hasBody(stmt()),
                              unless(isExpansionInSystemHeader()));
  if (wantsInstantiations())
    Finder->addMatcher(Defined.bind("fn"), this);
  else
    Finder->addMatcher(
        functionDecl(Defined, unless(isTemplateInstantiation())).bind("fn"),
        this);
  Finder->addMatcher(launchMatcher(), this);
}

void FunctionCheck::check(const ast_matchers::MatchFinder::MatchResult &R) {
  if (const auto *F = R.Nodes.getNodeAs<FunctionDecl>("fn")) {
    bool Device = F->hasAttr<CUDAGlobalAttr>() || F->hasAttr<CUDADeviceAttr>();
    if ((Device || wantsHostFunctions()) &&
        (!wantsInstantiations() || !F->isDependentContext()))
      Functions.push_back(F);
  } else if (const auto *L = R.Nodes.getNodeAs<CallExpr>("launch")) {
    Ctx.affine().recordLaunch(L);
    launchMatched(L);
  }
}

void FunctionCheck::onEndOfTranslationUnit() {
  for (const FunctionDecl *F : Functions)
    checkFunction(F);
  Functions.clear();
  finishTranslationUnit();
}

// ---------------------------------------------------------------- runner

// The matchers skip the declarations of system headers (the toolkit's,
// CCCL's): no check reports there, and a CUB-heavy file is mostly those.
static ast_matchers::MatchFinder::MatchFinderOptions finderOptions() {
  ast_matchers::MatchFinder::MatchFinderOptions O;
  O.IgnoreSystemHeaders = true;
  return O;
}

CheckRunner::CheckRunner(llvm::ArrayRef<CheckInfo> Registry,
                         const GlobList &Enabled, CheckSide Judges,
                         CheckContext &Ctx)
    : Ctx(Ctx), Finder(finderOptions()) {
  for (const CheckInfo &Info : Registry) {
    if (!Enabled.contains(Info.Id))
      continue;
    CheckSide Side =
        Info.Needs & needs::HostCode ? CheckSide::Host : CheckSide::Device;
    if (Judges != CheckSide::Both && Side != Judges)
      continue;
    std::unique_ptr<Check> C = Info.Create(Info.Id, Ctx);
    C->registerMatchers(&Finder);
    Checks.push_back(std::move(C));
  }
}

void CheckRunner::run(ASTContext &AST) {
  Ctx.setASTContext(&AST);
  if (!Checks.empty())
    Finder.matchAST(AST);
  Ctx.reportNoLintProblems();
}

} // namespace warplint
