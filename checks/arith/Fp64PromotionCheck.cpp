#include "checks/arith/Fp64PromotionCheck.h"
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Core/NoLint.h"
#include "IR/OptimisedAccesses.h"
#include "checks/arith/Fp64Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <cmath>

using namespace clang;

namespace warplint::arith {

using namespace fp64;

// One double computation whose result does not stay double.
struct Fp64PromotionCheck::Site {
  RootKind Kind;
  const Expr *Shown; // the expression quoted in the message
  DoubleExpr Parts;
};

Fp64PromotionCheck::Fp64PromotionCheck(llvm::StringRef Name, CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      WarnRatio(Options.get("WarnRatio", int64_t(32))),
      GroupAbove(Options.get("GroupAbove", int64_t(3))) {}

void Fp64PromotionCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".WarnRatio"] = std::to_string(WarnRatio);
  Opts[Name + ".GroupAbove"] = std::to_string(GroupAbove);
}

Severity Fp64PromotionCheck::severity() const {
  double Ratio = arch().fp64_to_fp32_ratio;
  if (WarnRatio <= 0)
    return Severity::Note;
  return Ratio * double(WarnRatio) <= 1.0 + 1e-9 ? Severity::Warning
                                                 : Severity::Note;
}

std::string Fp64PromotionCheck::ratioText() const {
  double Ratio = arch().fp64_to_fp32_ratio;
  long Den = Ratio > 0 ? std::lround(1.0 / Ratio) : 0;
  return "1:" + std::to_string(Den);
}

namespace {

// Whether nvcc narrows the double operation back to float, as LLVM's
// InstCombine does (checked against nvcc -O3 PTX, see the doc): one +, -, *
// or / of widened floats and constants exact in float whose result is
// rounded to float; a comparison of a widened float with such a constant, or
// of a widened integer with any constant; a ?: choosing between widened
// floats and constants.
bool narrowedByCompiler(RootKind Kind, const Expr *Top,
                        const DoubleExprBuilder &B) {
  auto FloatOrExact = [](Operand O) {
    return O == Operand::Float || O == Operand::ExactConst;
  };
  auto IsConst = [](Operand O) {
    return O == Operand::ExactConst || O == Operand::InexactConst;
  };
  switch (Kind) {
  case RootKind::ToFloat: {
    // Rounding commutes with negation: -(x * 0.5) narrows as x * 0.5 does.
    const Expr *E = B.throughLocals(Top);
    while (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus)
        break;
      E = B.throughLocals(U->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && isArithmetic(BO->getOpcode()))
      return FloatOrExact(B.operand(BO->getLHS())) &&
             FloatOrExact(B.operand(BO->getRHS()));
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      Operand T = B.operand(CO->getTrueExpr()),
              F = B.operand(CO->getFalseExpr());
      return (T == Operand::Float || IsConst(T)) &&
             (F == Operand::Float || IsConst(F));
    }
    return B.operand(E) == Operand::Float;
  }
  case RootKind::Compare: {
    const auto *BO = cast<BinaryOperator>(Top);
    Operand L = B.operand(BO->getLHS()), R = B.operand(BO->getRHS());
    if (FloatOrExact(L) && FloatOrExact(R))
      return true;
    return (L == Operand::Int && IsConst(R)) ||
           (R == Operand::Int && IsConst(L));
  }
  case RootKind::CompoundToFloat: {
    const auto *CA = cast<CompoundAssignOperator>(Top);
    return isArithmetic(
               BinaryOperator::getOpForCompoundAssignment(CA->getOpcode())) &&
           FloatOrExact(B.operand(CA->getRHS()));
  }
  case RootKind::ToInteger:
  case RootKind::CompoundToInteger:
    return false;
  }
  return false;
}

std::string spelling(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Spell = SM.getSpellingLoc(Loc);
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Spell), SM,
                              Ctx.getLangOpts())
      .str();
}

} // namespace

void Fp64PromotionCheck::checkFunction(const FunctionDecl *F) {
  if (!isWrittenForDevice(F))
    return;
  ASTContext &Ctx = F->getASTContext();
  FunctionFacts Facts(F, Ctx);
  if (Facts.WorksInDouble)
    return;
  DoubleExprBuilder Builder(Facts, Ctx);
  std::vector<Cause> Causes;

  auto Consider = [&](RootKind Kind, const Expr *Shown,
                      llvm::ArrayRef<const Expr *> Operands) {
    if (Shown->isValueDependent() || Shown->isEvaluatable(Ctx))
      return;
    Site S{Kind, Shown->IgnoreParens(), {}};
    // A comparison or compound assignment is itself one double operation.
    if (Operands.size() > 1)
      ++S.Parts.Ops;
    for (const Expr *Op : Operands)
      Builder.build(Op, S.Parts);
    if (S.Parts.has(Leaf::Data) || S.Parts.Ops == 0)
      return;
    if (!S.Parts.has(Leaf::Float) && !S.Parts.has(Leaf::Int))
      return; // constants only: folded at compile time
    // Integer arithmetic that goes through double and back to an integer
    // with exact constants (int half = i * 0.5, int r = sqrt(n)): the
    // exactness may be the point. An inexact one (i * 0.3) is arithmetic
    // that float would do as well.
    bool ToInteger =
        Kind == RootKind::ToInteger || Kind == RootKind::CompoundToInteger;
    if (ToInteger && !S.Parts.has(Leaf::Float) &&
        !llvm::any_of(S.Parts.Leaves, [&](const Leaf &L) {
          return (L.K == Leaf::Literal || L.K == Leaf::Constant) &&
                 Builder.operand(L.E) == Operand::InexactConst;
        }))
      return;
    const Expr *Top = Kind == RootKind::ToFloat || Kind == RootKind::ToInteger
                          ? Operands.front()
                          : Shown;
    // What -O3 left of it, where the IR layer ran and generated it: no FP64
    // instruction at the expression means folded or narrowed to float.
    switch (optimisedFate(S.Shown)) {
    case Fate::Removed:
      return;
    case Fate::Kept:
      break;
    case Fate::Unknown:
      if (narrowedByCompiler(Kind, Top, Builder))
        return;
      // Every float or integer value in it a constant after propagation
      // (locals assigned literal arithmetic once): folded.
      if (llvm::all_of(S.Parts.Leaves, [&](const Leaf &L) {
            return (L.K != Leaf::Float && L.K != Leaf::Int) ||
                   Facts.foldable(L.E);
          }))
        return;
      break;
    }
    report(S, F, Causes);
  };

  // Lambdas are functions of their own; sizeof's and typeid's operands
  // compute nothing.
  WalkOptions Code = WalkOptions().skipSizeof().skipTypeid();
  forEachStmt(F->getBody(), Code, [&](const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S); E && E->isValueDependent())
      return WalkStep::SkipChildren;
    if (const auto *Cast = dyn_cast<CastExpr>(S)) {
      const Expr *Sub = Cast->getSubExpr();
      CastKind K = Cast->getCastKind();
      if (isDouble(Sub->getType()) && !isDouble(Cast->getType())) {
        if (K == CK_FloatingCast)
          Consider(RootKind::ToFloat, Sub, {Sub});
        else if (K == CK_FloatingToIntegral || K == CK_FloatingToBoolean)
          Consider(RootKind::ToInteger, Sub, {Sub});
      }
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
      if (isDouble(CA->getComputationLHSType()) &&
          !isDouble(CA->getLHS()->getType()))
        Consider(isNarrowFloat(CA->getLHS()->getType())
                     ? RootKind::CompoundToFloat
                     : RootKind::CompoundToInteger,
                 CA, {CA->getLHS(), CA->getRHS()});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isComparisonOp() && isDouble(BO->getLHS()->getType()) &&
          isDouble(BO->getRHS()->getType()))
        Consider(RootKind::Compare, BO, {BO->getLHS(), BO->getRHS()});
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (auto C = powFloatInt(Call, F))
        Causes.push_back(std::move(*C));
    }
    return WalkStep::Continue;
  });

  // One cause once, however many expressions it reaches; none that NOLINT
  // silences counts towards the function's total.
  std::vector<Cause> Kept;
  for (Cause &C : Causes)
    if (Reported.insert(reportKey(C.Loc)).second && !suppressed(C.Loc))
      Kept.push_back(std::move(C));
  if (Kept.empty())
    return;
  if (GroupAbove > 0 && Kept.size() > size_t(GroupAbove))
    return emitGrouped(F, Kept);
  for (const Cause &C : Kept)
    emit(C);
}

Fp64PromotionCheck::Fate
Fp64PromotionCheck::optimisedFate(const Expr *Shown) const {
  const ir::OptimisedAccesses *O = context().optimisedAccesses();
  if (!O)
    return Fate::Unknown;
  SourceManager &SM = context().sourceManager();
  // Debug locations name the expansion of a macro.
  SourceLocation B = SM.getExpansionLoc(Shown->getBeginLoc());
  SourceLocation E = SM.getExpansionRange(Shown->getEndLoc()).getEnd();
  PresumedLoc PB = SM.getPresumedLoc(B), PE = SM.getPresumedLoc(E);
  if (PB.isInvalid() || PE.isInvalid() ||
      llvm::StringRef(PB.getFilename()) != PE.getFilename())
    return Fate::Unknown;
  llvm::SmallString<256> Path(PB.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  switch (O->fp64({std::string(Path), PB.getLine(), PB.getColumn()},
                  {std::string(Path), PE.getLine(), PE.getColumn()})) {
  case ir::Fp64Fate::Removed:
    return Fate::Removed;
  case ir::Fp64Fate::Kept:
    return Fate::Kept;
  case ir::Fp64Fate::Unknown:
    return Fate::Unknown;
  }
  return Fate::Unknown;
}

// A literal in a macro argument that a function-like macro expands several
// times (`#define max(x, y) ((x) < (y) ? (y) : (x))`) is one cause: where it
// is spelled and where the outermost expansion is.
std::pair<unsigned, unsigned>
Fp64PromotionCheck::reportKey(SourceLocation Loc) const {
  const SourceManager &SM = context().sourceManager();
  return {SM.getSpellingLoc(Loc).getRawEncoding(),
          SM.getExpansionLoc(Loc).getRawEncoding()};
}

bool Fp64PromotionCheck::suppressed(SourceLocation Loc) {
  SourceManager &SM = context().sourceManager();
  SourceLocation At = SM.getExpansionLoc(Loc);
  FileID FID = SM.getFileID(At);
  auto [It, New] = NoLint.try_emplace(FID);
  if (New) {
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
    It->second = std::make_unique<NoLintIndex>(Invalid ? "" : Buffer);
  }
  return It->second->suppresses(SM.getPresumedLineNumber(At), Name);
}

void Fp64PromotionCheck::emit(const Cause &C) {
  FindingBuilder B =
      diag(C.Loc,
           "'{0}' is computed in double precision: {1}; FP64 runs at {2} of "
           "the FP32 rate on {3}; {4} (CUDA C++ Best Practices Guide, 'Other "
           "Arithmetic Instructions')",
           severity());
  B << context().sourceText(C.Shown) << C.Why << PerTarget{ratioText()}
    << arch().Name << C.Advice;
  B.metric("fp64_to_fp32_ratio", arch().fp64_to_fp32_ratio);
  for (const FixItHint &H : C.Fixes)
    B << H;
  if (C.AtDeclaration)
    B.note(C.Shown->getBeginLoc(), "computed in double precision here");
}

namespace {

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

// "a, b and c"
std::string listed(const std::vector<std::string> &Items) {
  std::string Out;
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Items.size() ? " and " : ", ") + Items[I];
  return Out;
}

} // namespace

// Above GroupAbove causes in one function (a model file written with
// unsuffixed literals throughout), one finding for the function with the
// totals and each site as a note; every fix-it goes with it.
void Fp64PromotionCheck::emitGrouped(const FunctionDecl *F,
                                     const std::vector<Cause> &Causes) {
  size_t Count[5] = {0, 0, 0, 0, 0};
  std::vector<std::string> Calls, Declare, Macros;
  auto AddOnce = [](std::vector<std::string> &V, const std::string &S) {
    if (!S.empty() && !llvm::is_contained(V, S))
      V.push_back(S);
  };
  for (const Cause &C : Causes) {
    ++Count[C.K];
    if (C.K == Cause::Pow || C.K == Cause::Call)
      AddOnce(Calls, C.FloatCall);
    if (C.K == Cause::Constant || C.K == Cause::Local)
      AddOnce(Declare, "'" + C.Name + "'");
    if (C.K == Cause::Literal)
      AddOnce(Macros, C.Macro.empty() ? "" : "'" + C.Macro + "'");
  }
  std::vector<std::string> What, Advice;
  if (Count[Cause::Literal])
    What.push_back(plural(Count[Cause::Literal], "literal", "literals"));
  if (Count[Cause::Pow])
    What.push_back(plural(Count[Cause::Pow], "'pow' call", "'pow' calls"));
  if (Count[Cause::Call])
    What.push_back(
        plural(Count[Cause::Call], "double math call", "double math calls"));
  if (Count[Cause::Constant])
    What.push_back(
        plural(Count[Cause::Constant], "double constant", "double constants"));
  if (Count[Cause::Local])
    What.push_back(
        plural(Count[Cause::Local], "double local", "double locals"));
  if (Count[Cause::Literal])
    Advice.push_back("write the literals with an f suffix (0.5f)" +
                     (Macros.empty()
                          ? std::string()
                          : " in the code and in macro" +
                                std::string(Macros.size() > 1 ? "s " : " ") +
                                listed(Macros)));
  if (!Calls.empty())
    Advice.push_back("call " + listed(Calls));
  if (!Declare.empty())
    Advice.push_back("declare " + listed(Declare) + " float");

  std::string Share;
  if (const ir::OptimisedAccesses *O = context().optimisedAccesses()) {
    SourceManager &SM = context().sourceManager();
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(F->getLocation()));
    if (P.isValid()) {
      llvm::SmallString<256> Path(P.getFilename());
      SM.getFileManager().makeAbsolutePath(Path);
      if (auto S = O->fp64Share(Path, P.getLine());
          S && S->Instructions && S->Fp64)
        Share = "; about " +
                std::to_string(std::lround(100.0 * S->Fp64 / S->Instructions)) +
                "% of its instructions after -O3 are FP64 (" +
                std::to_string(S->Fp64) + " of " +
                std::to_string(S->Instructions) + ")";
    }
  }

  FindingBuilder B = diag(
      F->getLocation(),
      "'{0}' computes {1} float expressions in double precision: {2}{3}; "
      "FP64 runs at {4} of the FP32 rate on {5}; {6} (CUDA C++ Best Practices "
      "Guide, 'Other Arithmetic Instructions')",
      severity());
  B << F->getNameAsString() << std::to_string(Causes.size()) << listed(What)
    << Share << PerTarget{ratioText()} << arch().Name << listed(Advice);
  B.metric("fp64_to_fp32_ratio", arch().fp64_to_fp32_ratio);
  B.metric("fp64_expressions", double(Causes.size()));
  for (const Cause &C : Causes) {
    for (const FixItHint &H : C.Fixes)
      B << H;
    B.note(C.Loc, "'{0}': {1}; {2}")
        << context().sourceText(C.Shown) << C.Why << C.Advice;
  }
}

namespace {

// The float function of a C math function: fmax -> fmaxf.
std::string floatVersion(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Math = {
      "acos", "acosh",  "asin",  "asinh", "atan",  "atan2",    "atanh",
      "cbrt", "ceil",   "cos",   "cosh",  "erf",   "erfc",     "exp",
      "exp2", "expm1",  "fabs",  "fdim",  "floor", "fma",      "fmax",
      "fmin", "fmod",   "hypot", "log",   "log10", "log1p",    "log2",
      "pow",  "rint",   "round", "sin",   "sinh",  "sqrt",     "tan",
      "tanh", "tgamma", "trunc", "rsqrt", "rcbrt", "copysign", "lgamma"};
  if (!Callee->getDeclName().isIdentifier() ||
      !Math.contains(Callee->getName()))
    return "";
  return Callee->getName().str() + "f";
}

// The callee's name as written, a plain identifier (maybe std::) outside any
// macro, and the function not a template instantiation: what a fix-it may
// rename.
std::optional<CharSourceRange> renamable(const CallExpr *Call,
                                         const FunctionDecl *F) {
  const Expr *CalleeExpr = Call->getCallee()->IgnoreParenImpCasts();
  SourceRange R = CalleeExpr->getSourceRange();
  if (!isa<DeclRefExpr>(CalleeExpr) || R.getBegin().isMacroID() ||
      R.getEnd().isMacroID() || F->getTemplateInstantiationPattern())
    return std::nullopt;
  return CharSourceRange::getTokenRange(R);
}

} // namespace

void Fp64PromotionCheck::report(const Site &S, const FunctionDecl *F,
                                std::vector<Cause> &Out) {
  ASTContext &Ctx = F->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::string Operand = S.Parts.has(Leaf::Float) ? "float" : "integer";

  // A double local: the declaration is the cause and the place to fix.
  if (const Leaf *L = S.Parts.first(Leaf::Local)) {
    Cause C;
    C.K = Cause::Local;
    C.Loc = L->Var->getLocation();
    C.Shown = S.Shown;
    C.Name = L->Var->getName().str();
    C.Why = "'" + C.Name + "' is declared double";
    C.Advice = "declare '" + C.Name + "' float";
    C.AtDeclaration = true;
    Out.push_back(std::move(C));
    return;
  }

  if (const Leaf *L = S.Parts.first(Leaf::Literal)) {
    SourceLocation Loc = L->Lit->getLocation();
    Cause C;
    C.K = Cause::Literal;
    C.Loc = Loc;
    C.Shown = S.Shown;
    C.Why = "the literal " + spelling(Loc, Ctx);
    // Written in a macro's definition, not in an argument of its call.
    if (Loc.isMacroID() && !SM.isMacroArgExpansion(Loc)) {
      C.Macro = Lexer::getImmediateMacroName(Loc, SM, LO).str();
      C.Why += " (from macro '" + C.Macro + "')";
    }
    C.Why += " promotes the " + Operand + " operand to double";

    // Every literal gets its suffix when the rest of the expression is float,
    // the result goes back to float, and the source is not shared with other
    // instantiations.
    bool Fixable = S.Kind != RootKind::ToInteger &&
                   S.Kind != RootKind::CompoundToInteger &&
                   !F->getTemplateInstantiationPattern() &&
                   llvm::all_of(S.Parts.Leaves, [](const Leaf &X) {
                     return X.K == Leaf::Float || X.K == Leaf::Literal;
                   });
    std::vector<std::string> Written;
    for (const Leaf &X : S.Parts.Leaves) {
      if (X.K != Leaf::Literal)
        continue;
      SourceLocation At = X.Lit->getLocation();
      Written.push_back(spelling(At, Ctx) + "f");
      if (At.isMacroID() || !fitsFloat(X.Lit->getValue()))
        Fixable = false;
      C.Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(At, 0, SM, LO), "f"));
    }
    if (!Fixable)
      C.Fixes.clear();
    C.Advice = "write " + listed(Written);
    if (!C.Macro.empty())
      C.Advice += " in macro '" + C.Macro + "'";
    Out.push_back(std::move(C));
    return;
  }

  if (const Leaf *L = S.Parts.first(Leaf::Constant)) {
    Cause C;
    C.K = Cause::Constant;
    C.Loc = L->E->getExprLoc();
    C.Shown = S.Shown;
    C.Name = L->Var->getName().str();
    C.Why = "the double constant '" + C.Name + "' promotes the " + Operand +
            " operand to double";
    C.Advice = "declare '" + C.Name + "' float";
    Out.push_back(std::move(C));
    return;
  }

  if (!S.Parts.Calls.empty()) {
    // A double overload chosen for float and integer arguments: fmax(x, 1).
    const CallExpr *Call = S.Parts.Calls.front();
    Cause C;
    C.K = Cause::Call;
    C.Loc = Call->getExprLoc();
    C.Shown = S.Shown;
    std::string Name = Call->getDirectCallee()->getName().str();
    C.Why = "'" + Name + "' is the double-precision overload for " + Operand +
            " arguments";
    C.FloatCall = floatVersion(Call->getDirectCallee());
    C.Advice =
        C.FloatCall.empty() ? "pass float arguments" : "call " + C.FloatCall;
    // Renamed, the float function converts integer arguments itself.
    if (!C.FloatCall.empty() && S.Kind != RootKind::ToInteger &&
        S.Kind != RootKind::CompoundToInteger)
      if (auto R = renamable(Call, F))
        C.Fixes.push_back(FixItHint::CreateReplacement(*R, C.FloatCall));
    Out.push_back(std::move(C));
  }
}

// nvcc's headers follow C++11 with libstdc++, which dropped pow(float, int):
// both arguments are promoted and the double-precision pow runs (PTX:
// __internal_accurate_pow on doubles). Clang's CUDA headers keep a float
// overload, which is what the AST shows; the IR layer (clang's) cannot judge
// it, so the verdict is the AST's.
std::optional<Fp64PromotionCheck::Cause>
Fp64PromotionCheck::powFloatInt(const CallExpr *Call, const FunctionDecl *F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier() ||
      Callee->getName() != "pow" || Callee->getNumParams() != 2 ||
      !inSystemHeader(Callee) || isa<CXXMethodDecl>(Callee) ||
      Call->getNumArgs() != 2)
    return std::nullopt;
  auto Is = [](QualType T, BuiltinType::Kind K) {
    const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
    return BT && BT->getKind() == K;
  };
  if (!Is(Callee->getReturnType(), BuiltinType::Float) ||
      !Is(Callee->getParamDecl(0)->getType(), BuiltinType::Float) ||
      !Is(Callee->getParamDecl(1)->getType(), BuiltinType::Int))
    return std::nullopt;
  // Even of constant arguments (pow(10.25, 2)): nvcc calls its double pow
  // at run time.
  if (Call->isValueDependent() || Call->isEvaluatable(F->getASTContext()))
    return std::nullopt;
  Cause C;
  C.K = Cause::Pow;
  C.Loc = Call->getBeginLoc();
  C.Shown = Call;
  C.Why = "nvcc's headers follow C++11, which has no pow(float, int), so "
          "both arguments are promoted to double";
  C.FloatCall = "powf";
  C.Advice = "call powf";
  auto R = renamable(Call, F);
  if (!R)
    return C;
  // pow(x, 2) of a variable: x * x, exact where powf rounds.
  ASTContext &Ctx = F->getASTContext();
  const Expr *Base = Call->getArg(0)->IgnoreParenImpCasts();
  Expr::EvalResult Exp;
  if (isa<DeclRefExpr>(Base) && Base->getBeginLoc().isFileID() &&
      Call->getEndLoc().isFileID() &&
      Call->getArg(1)->EvaluateAsInt(Exp, Ctx) && Exp.Val.getInt() == 2) {
    std::string X = spelling(Base->getBeginLoc(), Ctx);
    C.Advice = "write " + X + " * " + X;
    C.Fixes.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(Call->getSourceRange()),
        "(" + X + " * " + X + ")"));
    return C;
  }
  C.Fixes.push_back(FixItHint::CreateReplacement(*R, "powf"));
  return C;
}

WARPLINT_CHECK_FACTORY(Fp64PromotionCheck)

} // namespace warplint::arith
