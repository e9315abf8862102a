#include "checks/warp/LegacyIntrinsicCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace warplint::warp {

namespace {

// The full mask is written as CUDA's own samples write it.
constexpr llvm::StringLiteral FullMask = "0xffffffff";

bool isLegacyName(llvm::StringRef Name) {
  return llvm::is_contained({"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                             "__ballot", "__any", "__all"},
                            Name);
}

// The toolkit's or the compiler's declaration in the global namespace: a
// user's own function or member that happens to be called __any is not the
// intrinsic.
bool isIntrinsic(const NamedDecl *D) {
  const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
  if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
    FD = FT->getTemplatedDecl();
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->getDeclName().isIdentifier() ||
      !isLegacyName(FD->getName()) ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

// The intrinsic's name and where the call writes it, or nothing. In a
// template, a call with dependent arguments stays unresolved until the
// template is instantiated; look at its candidates so that templates that are
// never instantiated are seen too.
std::optional<std::pair<llvm::StringRef, SourceLocation>>
legacyCallee(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
    if (isIntrinsic(DRE->getDecl()))
      return std::make_pair(DRE->getDecl()->getName(),
                            DRE->getNameInfo().getLoc());
  } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    for (const NamedDecl *D : ULE->decls())
      if (isIntrinsic(D))
        return std::make_pair(D->getUnderlyingDecl()->getName(),
                              ULE->getNameLoc());
  }
  return std::nullopt;
}

} // namespace

std::pair<std::string, SourceLocation>
LegacyIntrinsicCheck::whyNoFix(const CallExpr *Call, const FunctionDecl *Fn,
                               SourceLocation NameLoc) {
  const SourceManager &SM = context().sourceManager();
  if (NameLoc.isMacroID() || Call->getRParenLoc().isMacroID() ||
      (Call->getNumArgs() && Call->getArg(0)->getBeginLoc().isMacroID())) {
    if (SM.isMacroBodyExpansion(NameLoc))
      return {
          "no automatic fix: the call is written in the body of macro '" +
              Lexer::getImmediateMacroName(NameLoc, SM, context().langOpts())
                  .str() +
              "', which may expand where only some lanes are active; "
              "change the macro's definition",
          SM.getSpellingLoc(NameLoc)};
    return {"no automatic fix: the call is inside a macro argument", NameLoc};
  }
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  FunctionDependence::Guard G = FD.guardOf(Call);
  // A branch all lanes of a warp take together (the warp id, a vote) keeps
  // whole warps together: the full mask is right.
  if (isWarpUniform(G.D))
    return {};

  SourceLocation Where = G.Where->getBeginLoc();
  const Expr *Cond = FunctionDependence::conditionOf(G.Where);
  if (Cond)
    Where = Cond->getBeginLoc();

  std::string Mask = "; the mask must name exactly the lanes that reach the "
                     "call (for example __ballot_sync(" +
                     FullMask.str() +
                     ", cond) taken before the branch), or the code must "
                     "be restructured so the whole warp calls it";
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(G.Where))
    return {"no automatic fix: threads that leave here do not reach this call" +
                Mask,
            Where};
  if (G.D == Dependence::ThreadDependent)
    return {"no automatic fix: only some lanes reach this call" + Mask, Where};
  return {"no automatic fix: this condition may depend on the thread, so not "
          "every lane may reach this call" +
              Mask,
          Where};
}

void LegacyIntrinsicCheck::checkFunction(const FunctionDecl *Fn) {
  // Templates are seen as written, so that one never instantiated is checked
  // too, and each call is reported once. Lambdas are functions of their own:
  // calls in their bodies are judged there.
  forEachStmt(Fn->getBody(), [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (auto Callee = legacyCallee(Call))
        report(Call, Fn, Callee->first, Callee->second);
  });
}

void LegacyIntrinsicCheck::report(const CallExpr *Call, const FunctionDecl *Fn,
                                  llvm::StringRef Name,
                                  SourceLocation NameLoc) {
  std::string Replacement = (Name + "_sync").str();
  const ArchTable &Tables = context().tables();
  const ArchInfo *Removed = Tables.firstWhere(
      [](const ArchInfo &A) { return !A.legacy_warp_intrinsics; });
  std::string RemovedOn = Removed ? Removed->Name : "newer targets";

  bool Independent = arch().independent_thread_scheduling;
  auto [NoFix, NoteLoc] = whyNoFix(Call, Fn, NameLoc);
  {
    FindingBuilder B =
        Independent
            ? diag(NameLoc,
                   "'{0}' was removed on {1} and later (target {2}): with "
                   "independent thread scheduling the lanes of a warp need not "
                   "execute it together; use '{3}' with a mask of the lanes "
                   "that take part (Volta tuning guide 1.4.1.2)",
                   Severity::Error)
            : diag(
                  NameLoc,
                  "'{0}' is deprecated (target {2}): it was removed on {1} and "
                  "later, where independent thread scheduling lets the lanes "
                  "of a warp run apart; use '{3}' with a mask of the lanes "
                  "that take part (Volta tuning guide 1.4.1.2)",
                  Severity::Warning);
    B << Name << RemovedOn << arch().Name << Replacement;
    if (NoFix.empty() && Call->getNumArgs() > 0) {
      B << FixItHint::CreateReplacement(
               CharSourceRange::getTokenRange(NameLoc, NameLoc), Replacement)
        << FixItHint::CreateInsertion(Call->getArg(0)->getBeginLoc(),
                                      (FullMask + ", ").str());
    }
    if (!NoFix.empty())
      B.note(NoteLoc, "{0}") << NoFix;
  }
}

WARPLINT_CHECK_FACTORY(LegacyIntrinsicCheck)

} // namespace warplint::warp
