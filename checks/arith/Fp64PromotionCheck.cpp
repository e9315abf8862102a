#include "checks/arith/Fp64PromotionCheck.h"
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Core/NoLint.h"
#include "IR/OptimisedAccesses.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <cmath>

using namespace clang;

namespace warplint::arith {

namespace {

// How deep constant propagation follows an expression and the locals it
// reads: a model's `1/(0.13*(1+exp(-(v+10.66)/11.1)))` with its implicit
// casts is some 20 levels.
constexpr unsigned MaxFoldDepth = 64;

bool isDouble(QualType T) {
  const auto *BT = T->getAs<BuiltinType>();
  return BT && BT->getKind() == BuiltinType::Double;
}

// float, half, bfloat16: the types whose arithmetic double precision was not
// asked for.
bool isNarrowFloat(QualType T) {
  return T->isRealFloatingType() && !isDouble(T) &&
         !T->isSpecificBuiltinType(BuiltinType::LongDouble);
}

// A type that holds double data: double itself, pointers, references and
// arrays of it, and structs with a double member (double2, cuDoubleComplex).
bool holdsDouble(QualType T, unsigned Depth = 0) {
  if (T.isNull() || Depth > 4)
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (isDouble(T))
    return true;
  if (const auto *PT = T->getAs<PointerType>())
    return holdsDouble(PT->getPointeeType(), Depth + 1);
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return holdsDouble(AT->getElementType(), Depth + 1);
  if (const auto *RD = T->getAsRecordDecl()) {
    if (const auto *Def = RD->getDefinition())
      return llvm::any_of(Def->fields(), [&](const FieldDecl *FD) {
        return holdsDouble(FD->getType(), Depth + 1);
      });
  }
  return false;
}

bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation L = D->getLocation();
  return L.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(L));
}

// The literal a constant is written with, maybe negated: -0.5.
const FloatingLiteral *literalOf(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus))
    E = U->getSubExpr()->IgnoreParens();
  return dyn_cast<FloatingLiteral>(E);
}

llvm::APFloat::opStatus toFloat(llvm::APFloat V, bool &LosesInfo) {
  return V.convert(llvm::APFloat::IEEEsingle(),
                   llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
}

// Within float's range: the literal keeps its magnitude with an f suffix.
bool fitsFloat(const llvm::APFloat &V) {
  bool LosesInfo;
  return !(toFloat(V, LosesInfo) &
           (llvm::APFloat::opOverflow | llvm::APFloat::opUnderflow));
}

bool exactInFloat(const llvm::APFloat &V) {
  bool LosesInfo;
  return toFloat(V, LosesInfo) == llvm::APFloat::opOK && !LosesInfo;
}

// A call the author makes to get double arithmetic: their own function, or
// one of CUDA's double intrinsics (__dmul_rn, __fma_rn, ...).
bool isChosenDoubleCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return !Callee || !inSystemHeader(Callee) ||
         (Callee->getDeclName().isIdentifier() &&
          Callee->getName().starts_with("__"));
}

// Which double locals only stand for their initialiser (the compiler sees
// through them), and whether the function works in double on purpose.
class FunctionFacts {
public:
  FunctionFacts(const FunctionDecl *F, ASTContext &Ctx)
      : Ctx(Ctx), Writes(F->getBody()) {
    findStmt(F->getBody(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          Assigned[DRE] = BO->getRHS();
      return false;
    });
    // A deduced return type (a lambda's, auto) is not the author's choice.
    bool ReturnWritten = !F->getDeclaredReturnType()->getContainedAutoType();
    WorksInDouble = (ReturnWritten && holdsDouble(F->getReturnType())) ||
                    llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
                      return holdsDouble(P->getType());
                    });
    for (const VarDecl *V : Writes.locals())
      if (holdsDouble(V->getType()) && !transparent(V))
        WorksInDouble = true;
    walk(F->getBody());
  }

  // A double local with an initialiser that nothing writes afterwards: its
  // uses are its initialiser.
  bool transparent(const VarDecl *V) const {
    return V && isDouble(V->getType()) && Writes.keepsInitialValue(V);
  }
  // Its initialiser's value when that is a constant.
  std::optional<llvm::APFloat> constantValue(const VarDecl *V) const {
    const Expr *Init = V->getInit();
    llvm::APFloat Out(0.0);
    if (!Init || Init->isValueDependent() || !Init->EvaluateAsFloat(Out, Ctx))
      return std::nullopt;
    return Out;
  }

  // Whether the compiler computes E at compile time: literals and constants
  // combined by arithmetic, casts and math calls, and locals whose one
  // definition (an initialiser, or one assignment to a local declared
  // without one) is itself such an expression: `fp r; r = 10.25; ...
  // pow(r, 2) * 1e-15` is a constant after propagation, as -O3 sees it.
  bool foldable(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > MaxFoldDepth || E->isValueDependent())
      return false;
    E = E->IgnoreParens();
    if (E->isEvaluatable(Ctx))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      const Expr *Def = V ? definition(V) : nullptr;
      if (!Def || !Visiting.insert(V).second)
        return false;
      bool Out = foldable(Def, Depth + 1);
      Visiting.erase(V);
      return Out;
    }
    // Through math calls (exp, sqrt of a constant), but not pow: nvcc calls
    // libdevice's pow even for constant arguments, and what it returns is a
    // run-time value.
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    bool MathCall = Callee && !isa<CXXMethodDecl>(Callee) &&
                    inSystemHeader(Callee) &&
                    Callee->getDeclName().isIdentifier() &&
                    !Callee->getName().starts_with("pow");
    if (isa<UnaryOperator, BinaryOperator, ConditionalOperator, CastExpr>(E) ||
        MathCall) {
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_Deref ||
                U->getOpcode() == UO_AddrOf))
        return false;
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma))
        return false;
      if (Call)
        return Call->getNumArgs() &&
               llvm::all_of(Call->arguments(), [&](const Expr *A) {
                 return foldable(A, Depth + 1);
               });
      bool Any = false;
      for (const Stmt *Child : E->children()) {
        const auto *CE = dyn_cast_or_null<Expr>(Child);
        if (!CE || !foldable(CE, Depth + 1))
          return false;
        Any = true;
      }
      return Any;
    }
    return false;
  }

  // Double data the author chose: a double (or double*, double2...)
  // parameter or return type, a double local that is assigned (an
  // accumulator), a double array, an explicit conversion to double, a double
  // global, field or element, or a function of theirs that returns double.
  bool WorksInDouble = false;

private:
  // Everything written in the body counts, lambdas and unevaluated operands
  // included.
  void walk(const Stmt *Body) {
    WorksInDouble |=
        bool(findStmt(Body, WalkOptions().enterLambdas(), [&](const Stmt *S) {
          const auto *E = dyn_cast<Expr>(S);
          return E && !E->isValueDependent() && holdsDouble(E->getType()) &&
                 isChosenDouble(E);
        }));
  }

  bool isChosenDouble(const Expr *E) const {
    if (isa<ExplicitCastExpr, MemberExpr, ArraySubscriptExpr>(E))
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_Deref;
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return isChosenDoubleCall(Call);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V && !V->hasLocalStorage() &&
             !(V->getType().isConstQualified() && V->getInit() &&
               V->getInit()->isEvaluatable(Ctx));
    }
    return false;
  }

  // The one expression a local of the body gets its value from: its
  // initialiser when nothing writes it, or the right side of its one
  // assignment when it has no initialiser.
  const Expr *definition(const VarDecl *V) const {
    if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        V->getType()->isReferenceType())
      return nullptr;
    llvm::ArrayRef<const DeclRefExpr *> W = Writes.writes(V);
    if (W.empty())
      return V->getInit();
    if (W.size() != 1 || (V->getInit() && !isa<ImplicitValueInitExpr>(
                                              V->getInit()->IgnoreImplicit())))
      return nullptr;
    auto It = Assigned.find(W.front());
    return It == Assigned.end() ? nullptr : It->second;
  }

  ASTContext &Ctx;
  LocalWrites Writes;
  llvm::DenseMap<const DeclRefExpr *, const Expr *> Assigned;
  mutable llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
};

// What a double operand is, as far as the compiler's narrowing goes: a float
// or an integer widened to double, a constant (exact in float or not), or
// anything else.
enum class Operand { Float, Int, ExactConst, InexactConst, Other };

// The parts of a double expression the check reasons about: its leaves (where
// the double comes from) and its calls.
struct Leaf {
  enum Kind { Float, Int, Literal, Constant, Local, Data } K;
  const Expr *E;                        // the leaf as written
  const VarDecl *Var = nullptr;         // Constant, Local
  const FloatingLiteral *Lit = nullptr; // Literal
};

struct DoubleExpr {
  llvm::SmallVector<Leaf, 4> Leaves;
  llvm::SmallVector<const CallExpr *, 2> Calls; // double math functions
  unsigned Ops = 0;
  bool has(Leaf::Kind K) const {
    return llvm::any_of(Leaves, [&](const Leaf &L) { return L.K == K; });
  }
  const Leaf *first(Leaf::Kind K) const {
    for (const Leaf &L : Leaves)
      if (L.K == K)
        return &L;
    return nullptr;
  }
};

class DoubleExprBuilder {
public:
  DoubleExprBuilder(const FunctionFacts &Facts, ASTContext &Ctx)
      : Facts(Facts), Ctx(Ctx) {}

  void build(const Expr *E, DoubleExpr &Out, unsigned Depth = 0) {
    E = E->IgnoreParens();
    if (Depth > MaxExprDepth) {
      Out.Leaves.push_back({Leaf::Data, E});
      return;
    }
    if (!isDouble(E->getType())) {
      // A value the double arithmetic widens: the left side of a compound
      // assignment, the argument of a double math function.
      Leaf::Kind K = isNarrowFloat(E->getType())                   ? Leaf::Float
                     : E->getType()->isIntegralOrEnumerationType() ? Leaf::Int
                                                                   : Leaf::Data;
      Out.Leaves.push_back({K, E});
      return;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_FloatingCast:
        if (isNarrowFloat(Cast->getSubExpr()->getType())) {
          Out.Leaves.push_back({Leaf::Float, Cast->getSubExpr()});
          return;
        }
        return build(Cast->getSubExpr(), Out, Depth + 1);
      case CK_IntegralToFloating:
        Out.Leaves.push_back({Leaf::Int, Cast->getSubExpr()});
        return;
      case CK_LValueToRValue:
      case CK_NoOp:
        return build(Cast->getSubExpr(), Out, Depth + 1);
      default:
        Out.Leaves.push_back({Leaf::Data, E});
        return;
      }
    }
    if (const FloatingLiteral *Lit = literalOf(E)) {
      Out.Leaves.push_back({Leaf::Literal, E, nullptr, Lit});
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)) {
      ++Out.Ops;
      return build(U->getSubExpr(), Out, Depth + 1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
               BO->isComparisonOp())) {
      ++Out.Ops;
      build(BO->getLHS(), Out, Depth + 1);
      build(BO->getRHS(), Out, Depth + 1);
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      ++Out.Ops;
      build(CO->getTrueExpr(), Out, Depth + 1);
      build(CO->getFalseExpr(), Out, Depth + 1);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (!isChosenDoubleCall(Call) &&
          !isa<CXXMethodDecl>(Call->getDirectCallee())) {
        ++Out.Ops;
        Out.Calls.push_back(Call);
        for (const Expr *Arg : Call->arguments())
          build(Arg, Out, Depth + 1);
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (Facts.transparent(V)) {
        Out.Leaves.push_back({Leaf::Local, E, V});
        if (!Facts.constantValue(V))
          build(V->getInit(), Out, Depth + 1);
        return;
      }
      if (V && isConstant(V)) {
        Out.Leaves.push_back({Leaf::Constant, E, V});
        return;
      }
    }
    Out.Leaves.push_back({Leaf::Data, E});
  }

  // The double operand E as the compiler's narrowing sees it.
  Operand operand(const Expr *E, unsigned Depth = 0) const {
    E = E->IgnoreParens();
    if (Depth > MaxExprDepth)
      return Operand::Other;
    if (!isDouble(E->getType()))
      return isNarrowFloat(E->getType())                   ? Operand::Float
             : E->getType()->isIntegralOrEnumerationType() ? Operand::Int
                                                           : Operand::Other;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_FloatingCast:
      case CK_IntegralToFloating:
      case CK_LValueToRValue:
      case CK_NoOp:
        return operand(Cast->getSubExpr(), Depth + 1);
      default:
        return Operand::Other;
      }
    }
    std::optional<llvm::APFloat> Value;
    if (const FloatingLiteral *Lit = literalOf(E))
      Value = Lit->getValue();
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (Facts.transparent(V)) {
        Value = Facts.constantValue(V);
        if (!Value)
          return operand(V->getInit(), Depth + 1);
      } else if (V && isConstant(V)) {
        Value = Facts.constantValue(V);
      }
    }
    if (!Value)
      return Operand::Other;
    return exactInFloat(*Value) ? Operand::ExactConst : Operand::InexactConst;
  }

  // The expression a transparent local stands for.
  const Expr *throughLocals(const Expr *E) const {
    for (unsigned Depth = 0; Depth < MaxExprDepth; ++Depth) {
      E = E->IgnoreParens();
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
          Cast && (Cast->getCastKind() == CK_LValueToRValue ||
                   Cast->getCastKind() == CK_NoOp)) {
        E = Cast->getSubExpr();
        continue;
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!Facts.transparent(V) || Facts.constantValue(V))
        return E;
      E = V->getInit();
    }
    return E;
  }

private:
  // A double constant of namespace or class scope: constexpr double PI.
  bool isConstant(const VarDecl *V) const {
    return !V->hasLocalStorage() && V->getType().isConstQualified() &&
           V->getInit() && !V->getInit()->isValueDependent() &&
           V->getInit()->isEvaluatable(Ctx);
  }

  const FunctionFacts &Facts;
  ASTContext &Ctx;
};

// Where a double result ends: converted to float or an integer, compared, or
// written back into a float through a compound assignment.
enum class RootKind {
  ToFloat,
  ToInteger,
  Compare,
  CompoundToFloat,
  CompoundToInteger
};

bool isArithmetic(BinaryOperatorKind Op) {
  return Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Div;
}

} // namespace

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
