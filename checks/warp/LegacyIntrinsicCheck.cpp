#include "checks/warp/LegacyIntrinsicCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint::warp {

namespace {

// The full mask is written as CUDA's own samples write it.
constexpr llvm::StringLiteral FullMask = "0xffffffff";

auto legacyNames() {
  return hasAnyName("::__shfl", "::__shfl_up", "::__shfl_down", "::__shfl_xor",
                    "::__ballot", "::__any", "::__all");
}

// The callee's name and where it is written: a resolved call, or an
// unresolved one in a template whose arguments are dependent.
std::pair<llvm::StringRef, SourceLocation> calleeName(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    return {DRE->getDecl()->getName(), DRE->getNameInfo().getLoc()};
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    return {ULE->getName().getAsString() == "" ? llvm::StringRef()
                                               : ULE->getName().getAsIdentifierInfo()->getName(),
            ULE->getNameLoc()};
  return {};
}

} // namespace

void LegacyIntrinsicCheck::registerMatchers(MatchFinder *Finder) {
  // Only the toolkit's or the compiler's declarations: a user's own function
  // or member that happens to be called __any is not the intrinsic.
  auto Intrinsic = functionDecl(legacyNames(), isExpansionInSystemHeader());
  auto InFunction = forFunction(functionDecl().bind("fn"));
  Finder->addMatcher(callExpr(callee(Intrinsic), unless(isInTemplateInstantiation()),
                              InFunction)
                         .bind("call"),
                     this);
  // In a template, a call with dependent arguments is resolved only when the
  // template is instantiated; match the unresolved form so that templates
  // that are never instantiated are seen too.
  Finder->addMatcher(
      callExpr(callee(unresolvedLookupExpr(hasAnyDeclaration(Intrinsic))),
               InFunction)
          .bind("call"),
      this);
}

std::pair<std::string, SourceLocation>
LegacyIntrinsicCheck::whyNoFix(const CallExpr *Call, const FunctionDecl *Fn,
                               SourceLocation NameLoc) {
  const SourceManager &SM = context().sourceManager();
  if (NameLoc.isMacroID() || Call->getRParenLoc().isMacroID() ||
      (Call->getNumArgs() && Call->getArg(0)->getBeginLoc().isMacroID())) {
    if (SM.isMacroBodyExpansion(NameLoc))
      return {"no automatic fix: the call is written in the body of macro '" +
                  Lexer::getImmediateMacroName(NameLoc, SM, context().langOpts())
                      .str() +
                  "', which may expand where only some lanes are active; "
                  "change the macro's definition",
              SM.getSpellingLoc(NameLoc)};
    return {"no automatic fix: the call is inside a macro argument",
            NameLoc};
  }
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  FunctionDependence::Guard G = FD.guardOf(Call);
  if (G.D == Dependence::Uniform)
    return {};

  SourceLocation Where = G.Where->getBeginLoc();
  const Expr *Cond = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(G.Where))
    Cond = If->getCond();
  else if (const auto *For = dyn_cast<ForStmt>(G.Where))
    Cond = For->getCond();
  else if (const auto *While = dyn_cast<WhileStmt>(G.Where))
    Cond = While->getCond();
  else if (const auto *Do = dyn_cast<DoStmt>(G.Where))
    Cond = Do->getCond();
  else if (const auto *Sw = dyn_cast<SwitchStmt>(G.Where))
    Cond = Sw->getCond();
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(G.Where))
    Cond = CO->getCond();
  else if (const auto *BO = dyn_cast<BinaryOperator>(G.Where))
    Cond = BO->getLHS();
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

void LegacyIntrinsicCheck::check(const MatchFinder::MatchResult &R) {
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = R.Nodes.getNodeAs<FunctionDecl>("fn");
  auto [Name, NameLoc] = calleeName(Call);
  if (Name.empty() || NameLoc.isInvalid())
    return;
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
                   "'%0' was removed on %1 and later (target %2): with "
                   "independent thread scheduling the lanes of a warp need not "
                   "execute it together; use '%3' with a mask of the lanes "
                   "that take part (Volta tuning guide 1.4.1.2)",
                   Severity::Error)
            : diag(NameLoc,
                   "'%0' is deprecated (target %2): it was removed on %1 and "
                   "later, where independent thread scheduling lets the lanes "
                   "of a warp run apart; use '%3' with a mask of the lanes "
                   "that take part (Volta tuning guide 1.4.1.2)",
                   Severity::Warning);
    B << Name << RemovedOn << arch().Name << Replacement;
    if (NoFix.empty() && Call->getNumArgs() > 0) {
      B << FixItHint::CreateReplacement(
               CharSourceRange::getTokenRange(NameLoc, NameLoc), Replacement)
        << FixItHint::CreateInsertion(Call->getArg(0)->getBeginLoc(),
                                      (FullMask + ", ").str());
    }
  }
  if (!NoFix.empty())
    diag(NoteLoc, NoFix, Severity::Note);
}

WARPLINT_CHECK_FACTORY(LegacyIntrinsicCheck)

} // namespace warplint::warp
