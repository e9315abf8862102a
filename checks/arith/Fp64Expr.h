// arith-fp64-promotion's model of a double expression: its leaves (where the
// double comes from), its calls, and where its result ends. Shared by the
// check's files only.
#pragma once
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Core/NoLint.h"
#include "IR/OptimisedAccesses.h"
#include "checks/arith/Fp64PromotionCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <cmath>

namespace warplint::arith::fp64 {

using namespace clang;

// How deep constant propagation follows an expression and the locals it
// reads: a model's `1/(0.13*(1+exp(-(v+10.66)/11.1)))` with its implicit
// casts is some 20 levels.
constexpr unsigned MaxFoldDepth = 64;

inline bool isDouble(QualType T) {
  const auto *BT = T->getAs<BuiltinType>();
  return BT && BT->getKind() == BuiltinType::Double;
}

// float, half, bfloat16: the types whose arithmetic double precision was not
// asked for.
inline bool isNarrowFloat(QualType T) {
  return T->isRealFloatingType() && !isDouble(T) &&
         !T->isSpecificBuiltinType(BuiltinType::LongDouble);
}

// A type that holds double data: double itself, pointers, references and
// arrays of it, and structs with a double member (double2, cuDoubleComplex).
inline bool holdsDouble(QualType T, unsigned Depth = 0) {
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

inline bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation L = D->getLocation();
  return L.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(L));
}

// The literal a constant is written with, maybe negated: -0.5.
inline const FloatingLiteral *literalOf(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus))
    E = U->getSubExpr()->IgnoreParens();
  return dyn_cast<FloatingLiteral>(E);
}

inline llvm::APFloat::opStatus toFloat(llvm::APFloat V, bool &LosesInfo) {
  return V.convert(llvm::APFloat::IEEEsingle(),
                   llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
}

// Within float's range: the literal keeps its magnitude with an f suffix.
inline bool fitsFloat(const llvm::APFloat &V) {
  bool LosesInfo;
  return !(toFloat(V, LosesInfo) &
           (llvm::APFloat::opOverflow | llvm::APFloat::opUnderflow));
}

inline bool exactInFloat(const llvm::APFloat &V) {
  bool LosesInfo;
  return toFloat(V, LosesInfo) == llvm::APFloat::opOK && !LosesInfo;
}

// A call the author makes to get double arithmetic: their own function, or
// one of CUDA's double intrinsics (__dmul_rn, __fma_rn, ...).
inline bool isChosenDoubleCall(const CallExpr *Call) {
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

inline bool isArithmetic(BinaryOperatorKind Op) {
  return Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Div;
}

} // namespace warplint::arith::fp64
