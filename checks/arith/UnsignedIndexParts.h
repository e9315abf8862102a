// arith-unsigned-index's pieces: an index's leaves, the ranges its
// variables are proven to stay in, the guards that bound them. Shared by the
// check's files only.
#pragma once
#include "Analysis/AffineIndex.h"
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Analysis/Loops.h"
#include "Analysis/ThreadDependence.h"
#include "checks/arith/UnsignedIndexCheck.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <set>

namespace warplint::arith {

// A for loop with a counter: for (unsigned i = Start; ...; i++ / i += Step).
struct UnsignedIndexCheck::Loop {
  const clang::ForStmt *For;
  const clang::VarDecl *Counter;
  const clang::Expr *Start;
  const clang::Expr *Step; // i += Step; null for ++ and --
  bool Increasing;
  // The condition's bound when it is i < Bound (Inclusive: i <= Bound).
  const clang::Expr *Bound = nullptr;
  bool Inclusive = false;
  // Stepped by ++, --, += 1 or -= 1.
  bool UnitStep = false;
  // The start and the step are constants: with a constant bound, a trip
  // count nvcc knows (and unrolls whole when it is small).
  bool ConstantTrip = false;
};

// a[Index] or p + Index.
struct UnsignedIndexCheck::Access {
  const clang::Expr *E;
  const clang::Expr *Base;
  const clang::Expr *Index;
};

} // namespace warplint::arith

namespace warplint::arith::unsigned_index {

using namespace clang;

inline bool isUnsigned32(QualType T, const ASTContext &Ctx) {
  return T->isUnsignedIntegerType() && !T->isBooleanType() &&
         Ctx.getIntWidth(T) == 32;
}

inline const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

inline std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().tryExtValue();
}

// threadIdx.x, blockDim.y, ...: "threadIdx.x".
inline std::optional<std::string> builtinName(const Expr *E) {
  auto B = cudaBuiltinComponent(E);
  if (!B)
    return std::nullopt;
  llvm::StringRef Type = B->first;
  Type.consume_front("__cuda_builtin_");
  Type.consume_back("_t");
  return (Type + "." + B->second).str();
}

inline std::optional<UnsignedIndexCheck::Loop> loopOf(const ForStmt *FS,
                                                      const ASTContext &Ctx) {
  std::optional<ForCounter> C = forCounter(FS);
  if (!C || !C->Var->getType()->isIntegerType() || !FS->getInc())
    return std::nullopt;
  const VarDecl *V = C->Var;
  const Expr *Start = C->Start;
  UnsignedIndexCheck::Loop L{FS, V, Start, nullptr, false};
  const Expr *Inc = FS->getInc()->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp() && varOf(U->getSubExpr()) == V) {
    L.Increasing = U->isIncrementOp();
    L.UnitStep = true;
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
             CA && varOf(CA->getLHS()) == V &&
             (CA->getOpcode() == BO_AddAssign ||
              CA->getOpcode() == BO_SubAssign)) {
    L.Step = CA->getRHS();
    std::optional<int64_t> C = constantOf(L.Step, Ctx);
    bool NonNegative =
        C ? *C >= 0
          : L.Step->IgnoreParenImpCasts()->getType()->isUnsignedIntegerType();
    L.Increasing = CA->getOpcode() == BO_AddAssign && NonNegative;
    L.UnitStep = C && *C == 1;
  } else {
    return std::nullopt;
  }
  // i < n, i <= n, n > i, n >= i.
  if (const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr)) {
    BinaryOperatorKind Op = Cond->getOpcode();
    if ((Op == BO_LT || Op == BO_LE) && varOf(Cond->getLHS()) == V)
      L.Bound = Cond->getRHS();
    else if ((Op == BO_GT || Op == BO_GE) && varOf(Cond->getRHS()) == V)
      L.Bound = Cond->getLHS();
    L.Inclusive = Op == BO_LE || Op == BO_GE;
  }
  L.ConstantTrip =
      constantOf(Start, Ctx) && (!L.Step || constantOf(L.Step, Ctx));
  return L;
}

// Everything written in an expression, lambdas included.
constexpr WalkOptions Everything = WalkOptions().enterLambdas();

// Whether Target is S or lies inside it.
inline bool contains(const Stmt *S, const Stmt *Target) {
  return containsStmt(S, Target, Everything);
}

// The leaves of an integer expression: the variables, built-ins, literals
// and other values it combines. A local that keeps its initial value is a
// leaf (its type is the user's choice), and Follow says whether to look into
// its initialiser too.
struct IndexLeaf {
  enum Kind { Var, Builtin, Literal, Other } K;
  const Expr *E;
  const VarDecl *V = nullptr;
};

void collectLeaves(const Expr *E, const LocalWrites &Writes,
                   llvm::function_ref<bool(const VarDecl *)> Follow,
                   llvm::SmallVectorImpl<IndexLeaf> &Out, unsigned Depth = 0) {
  E = E->IgnoreParens();
  if (Depth > MaxExprDepth) {
    Out.push_back({IndexLeaf::Other, E});
    return;
  }
  if (builtinName(E)) {
    Out.push_back({IndexLeaf::Builtin, E});
    return;
  }
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_IntegralCast ||
        Cast->getCastKind() == CK_LValueToRValue ||
        Cast->getCastKind() == CK_NoOp)
      return collectLeaves(Cast->getSubExpr(), Writes, Follow, Out, Depth + 1);
    Out.push_back({IndexLeaf::Other, E});
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && !BO->isAssignmentOp() && !BO->isComparisonOp() &&
      !BO->isLogicalOp() && BO->getOpcode() != BO_Comma) {
    collectLeaves(BO->getLHS(), Writes, Follow, Out, Depth + 1);
    collectLeaves(BO->getRHS(), Writes, Follow, Out, Depth + 1);
    return;
  }
  if (isa<IntegerLiteral>(E)) {
    Out.push_back({IndexLeaf::Literal, E});
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      Out.push_back({IndexLeaf::Var, E, V});
      if (Writes.keepsInitialValue(V) && Follow(V))
        collectLeaves(V->getInit(), Writes, Follow, Out, Depth + 1);
      return;
    }
  }
  Out.push_back({IndexLeaf::Other, E});
}

void collectAllLeaves(const Expr *E, const LocalWrites &Writes,
                      llvm::SmallVectorImpl<IndexLeaf> &Out) {
  collectLeaves(E, Writes, [](const VarDecl *) { return true; }, Out);
}

// Index is the counter, or the counter plus or minus a constant, of a loop
// that counts up by one from 0 to a strict bound (i < n): the bound keeps
// the counter from wrapping, and the compiler widens it without help (one
// instruction in four iterations of the unrolled loop). A larger or a
// variable step may wrap past the bound, and a loop that starts elsewhere
// or counts down is unrolled with a widening per copy: those cost one to
// three instructions an iteration (nvcc -O3, sm_80) and are judged like any
// other index.
inline bool isCounterPlusConstant(const Expr *Index,
                                  const UnsignedIndexCheck::Loop &L,
                                  const ASTContext &Ctx) {
  std::optional<int64_t> Start = constantOf(L.Start, Ctx);
  if (!L.Increasing || !L.UnitStep || !L.Bound || L.Inclusive || !Start ||
      *Start != 0)
    return false;
  const VarDecl *Counter = L.Counter;
  const Expr *E = Index->IgnoreParenImpCasts();
  if (varOf(E) == Counter)
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || !BO->isAdditiveOp())
    return false;
  return (varOf(BO->getLHS()) == Counter && constantOf(BO->getRHS(), Ctx)) ||
         (BO->getOpcode() == BO_Add && varOf(BO->getRHS()) == Counter &&
          constantOf(BO->getLHS(), Ctx));
}

inline std::string quotedList(llvm::ArrayRef<std::string> Names) {
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0                  ? ""
            : I + 1 == Names.size() ? " and "
                                    : ", ") +
           ("'" + Names[I] + "'");
  return Out;
}

// What makes an unsigned value as small as the analysis says: the first
// thread, the first block, the loop's first iteration.
enum MinReason : unsigned {
  FirstThread = 1,
  FirstBlock = 2,
  FirstIteration = 4
};

// The range of an unsigned index expression as far as the analysis can
// tell, and what makes it take its smallest value.
struct Bounds {
  std::optional<uint64_t> Lo, Hi;
  unsigned Why = 0; // how some thread reaches Lo
};

inline std::string describe(unsigned Why) {
  std::string Who;
  if ((Why & FirstThread) && (Why & FirstBlock))
    Who = "in thread 0 of block 0";
  else if (Why & FirstThread)
    Who = "in thread 0";
  else if (Why & FirstBlock)
    Who = "in block 0";
  if (Why & FirstIteration)
    Who += (Who.empty() ? "" : ", ") +
           std::string("on the loop's first iteration");
  return Who;
}

// Ranges from what the compiler knows too: built-in indices start at 0 and
// threadIdx stays below 1024 (NVPTX gives the special registers those
// ranges), a counting-up loop runs from its start to its bound, locals keep
// their initialiser, % and & bound from above.
class RangeFinder {
public:
  RangeFinder(llvm::ArrayRef<UnsignedIndexCheck::Loop> Loops,
              const LocalWrites &Writes, const ASTContext &Ctx)
      : Loops(Loops), Writes(Writes), Ctx(Ctx) {}

  Bounds operator()(const Expr *E, unsigned Depth = 0) const {
    E = E->IgnoreParens();
    if (Depth > MaxExprDepth)
      return {};
    if (std::optional<int64_t> C = constantOf(E, Ctx))
      return *C >= 0 ? Bounds{uint64_t(*C), uint64_t(*C), 0} : Bounds{};
    if (auto Name = builtinName(E))
      return builtin(*Name);
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
      return (*this)(Cast->getSubExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return variable(dyn_cast<VarDecl>(DRE->getDecl()), Depth);
    const auto *BO = dyn_cast<BinaryOperator>(E);
    return BO ? binary(BO, Depth) : Bounds{};
  }

private:
  using Bound = std::optional<uint64_t>;

  // A + B or A * B when both are known and small enough not to overflow.
  template <typename Op> static Bound combine(Bound A, Bound B, Op F) {
    if (!A || !B || *A > UINT32_MAX || *B > UINT32_MAX)
      return std::nullopt;
    return F(*A, *B);
  }
  static bool startsAtZero(const Bounds &X) { return X.Lo && *X.Lo == 0; }

  Bounds binary(const BinaryOperator *BO, unsigned Depth) const {
    Bounds L = (*this)(BO->getLHS(), Depth + 1);
    Bounds R = (*this)(BO->getRHS(), Depth + 1);
    std::optional<int64_t> C = constantOf(BO->getRHS(), Ctx);
    bool Shift = C && *C > 0 && *C < 32;
    switch (BO->getOpcode()) {
    case BO_Add:
      return {combine(L.Lo, R.Lo, std::plus<uint64_t>()),
              combine(L.Hi, R.Hi, std::plus<uint64_t>()), L.Why | R.Why};
    case BO_Mul: {
      Bounds Out{combine(L.Lo, R.Lo, std::multiplies<uint64_t>()),
                 combine(L.Hi, R.Hi, std::multiplies<uint64_t>()),
                 L.Why | R.Why};
      // x * 0 is 0 whatever the other factor.
      if (startsAtZero(L) || startsAtZero(R))
        Out = {0, Out.Hi, startsAtZero(L) ? L.Why : R.Why};
      return Out;
    }
    case BO_Rem:
      return {startsAtZero(L) ? Bound(0) : std::nullopt,
              C && *C > 0 ? Bound(*C - 1) : L.Hi, L.Why};
    case BO_And:
      return {startsAtZero(L) || startsAtZero(R) ? Bound(0) : std::nullopt,
              C && *C >= 0 ? Bound(*C) : L.Hi, startsAtZero(L) ? L.Why : R.Why};
    case BO_Div:
      if (!C || *C <= 0)
        return {startsAtZero(L) ? L.Lo : std::nullopt, L.Hi, L.Why};
      return {L.Lo ? Bound(*L.Lo / *C) : std::nullopt,
              L.Hi ? Bound(*L.Hi / *C) : std::nullopt, L.Why};
    case BO_Shr:
      if (!Shift)
        return {startsAtZero(L) ? L.Lo : std::nullopt, L.Hi, L.Why};
      return {L.Lo ? Bound(*L.Lo >> *C) : std::nullopt,
              L.Hi ? Bound(*L.Hi >> *C) : std::nullopt, L.Why};
    case BO_Shl:
      if (!Shift)
        return {};
      return {L.Lo && *L.Lo <= UINT32_MAX ? Bound(*L.Lo << *C) : std::nullopt,
              L.Hi && *L.Hi <= UINT32_MAX ? Bound(*L.Hi << *C) : std::nullopt,
              L.Why};
    default:
      return {};
    }
  }

  static Bounds builtin(llvm::StringRef Name) {
    if (Name.starts_with("threadIdx."))
      return {0, 1023, FirstThread};
    if (Name.starts_with("blockIdx."))
      return {0, std::nullopt, FirstBlock};
    if (Name.starts_with("blockDim."))
      return {1, 1024, 0};
    if (Name.starts_with("gridDim."))
      return {1, std::nullopt, 0};
    return {};
  }

  Bounds variable(const VarDecl *V, unsigned Depth) const {
    if (!V)
      return {};
    if (Writes.keepsInitialValue(V))
      return (*this)(V->getInit(), Depth + 1);
    for (const UnsignedIndexCheck::Loop &L : Loops) {
      if (L.Counter != V || !L.Increasing || !writtenOnlyByLoop(L))
        continue;
      Bounds Out = (*this)(L.Start, Depth + 1);
      Out.Why |= FirstIteration;
      Out.Hi.reset();
      // With a start or a step known only at run time the loop stays a
      // loop, and the compiler cannot use the bound to widen the address
      // once (a thread-dependent start, a variable step that may wrap).
      if (L.Bound && L.ConstantTrip) {
        Bounds B = (*this)(L.Bound, Depth + 1);
        if (B.Hi && (L.Inclusive || *B.Hi > 0))
          Out.Hi = L.Inclusive ? *B.Hi : *B.Hi - 1;
      }
      return Out;
    }
    return {};
  }

  // The counter changes only in the loop's own init and increment.
  bool writtenOnlyByLoop(const UnsignedIndexCheck::Loop &L) const {
    return llvm::all_of(Writes.writes(L.Counter), [&](const DeclRefExpr *W) {
      return contains(L.For->getInit(), W) || contains(L.For->getInc(), W);
    });
  }

  llvm::ArrayRef<UnsignedIndexCheck::Loop> Loops;
  const LocalWrites &Writes;
  const ASTContext &Ctx;
};

// The variables and built-ins an expression depends on, and the locals
// computed from them: what a guard must talk about.
class GuardKeys {
public:
  GuardKeys(const Expr *X, const LocalWrites &Writes) {
    llvm::SmallVector<IndexLeaf, 8> Leaves;
    collectAllLeaves(X, Writes, Leaves);
    for (const IndexLeaf &L : Leaves) {
      if (L.K == IndexLeaf::Var)
        Vars.insert(L.V);
      else if (L.K == IndexLeaf::Builtin)
        Builtins.insert(*builtinName(L.E));
    }
    // lane = threadIdx.x & 31; if (lane > 0) ... s[threadIdx.x - 1]
    for (int Round = 0; Round < 2; ++Round)
      for (const VarDecl *V : Writes.locals())
        if (Writes.keepsInitialValue(V) && !Vars.contains(V) &&
            mentions(V->getInit()))
          Vars.insert(V);
  }

  bool isKey(const Expr *E) const {
    if (auto Name = builtinName(E))
      return Builtins.count(*Name);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return Vars.contains(dyn_cast<VarDecl>(DRE->getDecl()));
    return false;
  }

  bool mentions(const Stmt *S) const {
    return findStmt(S, Everything, [&](const Stmt *N) {
      const auto *E = dyn_cast<Expr>(N);
      return E && isKey(E);
    });
  }

  // Whether Cond, when true, may keep the key above its minimum: anything
  // but a plain upper bound (k < n, n > k) counts, so that the check stays
  // silent on guards it does not understand.
  bool mayBoundBelow(const Expr *Cond) const {
    bool Found = false;
    forEachStmt(Cond, Everything,
                [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Up) {
                  const auto *E = dyn_cast<Expr>(S);
                  if (!E || !isKey(E))
                    return WalkStep::Continue;
                  // The comparison the key is under, and whether a ! or an
                  // || above it turns a bound into its opposite.
                  const BinaryOperator *Cmp = nullptr;
                  bool Negated = false;
                  for (const Stmt *P : Up) {
                    if (const auto *U = dyn_cast<UnaryOperator>(P);
                        U && U->getOpcode() == UO_LNot)
                      Negated = true;
                    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
                      if (BO->getOpcode() == BO_LOr)
                        Negated = true;
                      if (BO->isComparisonOp())
                        Cmp = BO;
                    }
                  }
                  Found = !Cmp || Negated || !isUpperBound(Cmp, E);
                  return Found ? WalkStep::Stop : WalkStep::SkipChildren;
                });
    return Found;
  }

private:
  // k < n or k <= n with the key on the left; n > k or n >= k with it on
  // the right.
  static bool isUpperBound(const BinaryOperator *Cmp, const Expr *Key) {
    switch (Cmp->getOpcode()) {
    case BO_LT:
    case BO_LE:
      return contains(Cmp->getLHS(), Key);
    case BO_GT:
    case BO_GE:
      return contains(Cmp->getRHS(), Key);
    default:
      return false;
    }
  }

  llvm::DenseSet<const VarDecl *> Vars;
  std::set<std::string> Builtins;
};

inline bool containsJump(const Stmt *S) {
  return findStmt(S, Everything, [](const Stmt *N) {
    return isa<ReturnStmt, ContinueStmt, BreakStmt, GotoStmt>(N);
  });
}

// Whether Body leaves its loop other than through the loop's condition: a
// break of its own (not an inner loop's or switch's), a return, a goto.
inline bool leavesLoopEarly(const Stmt *Body) {
  bool Leaves = false;
  std::function<void(const Stmt *, bool)> Visit = [&](const Stmt *S,
                                                      bool InnerBreakable) {
    if (!S || Leaves || isa<LambdaExpr>(S))
      return;
    if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S) ||
        (isa<BreakStmt>(S) && !InnerBreakable)) {
      Leaves = true;
      return;
    }
    bool Inner =
        InnerBreakable ||
        isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S);
    for (const Stmt *Child : S->children())
      Visit(Child, Inner);
  };
  Visit(Body, false);
  return Leaves;
}

// Whether some condition on the way to the access, or an early exit before
// it, may keep the keys above their minimum.
inline bool isGuarded(llvm::ArrayRef<const Stmt *> Path, const Stmt *Access,
                      const GuardKeys &Keys) {
  for (size_t I = Path.size(); I-- > 0;) {
    const Stmt *Parent = Path[I];
    const Stmt *Child = I + 1 < Path.size() ? Path[I + 1] : Access;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child == If->getThen() && Keys.mayBoundBelow(If->getCond()))
        return true;
      if (Child == If->getElse() && Keys.mentions(If->getCond()))
        return true;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (Child == CO->getTrueExpr() && Keys.mayBoundBelow(CO->getCond()))
        return true;
      if (Child == CO->getFalseExpr() && Keys.mentions(CO->getCond()))
        return true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (Child != BO->getRHS())
        continue;
      if (BO->getOpcode() == BO_LAnd && Keys.mayBoundBelow(BO->getLHS()))
        return true;
      if (BO->getOpcode() == BO_LOr && Keys.mentions(BO->getLHS()))
        return true;
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (Child == For->getBody() && For->getCond() &&
          Keys.mayBoundBelow(For->getCond()))
        return true;
    } else if (const auto *While = dyn_cast<WhileStmt>(Parent)) {
      if (Child == While->getBody() && Keys.mayBoundBelow(While->getCond()))
        return true;
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
      if (Keys.mentions(Switch->getCond()))
        return true;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Before);
            If && Keys.mentions(If->getCond()) &&
            (containsJump(If->getThen()) || containsJump(If->getElse())))
          return true;
      }
    }
  }
  return false;
}

// The unsigned subtraction of a constant inside an index (through sums,
// products and locals that keep their value): i - 1, (row - 1) * w + col.
inline const BinaryOperator *subtractionIn(const Expr *E,
                                           const LocalWrites &Writes,
                                           const ASTContext &Ctx,
                                           unsigned Depth = 0) {
  E = E->IgnoreParens();
  if (Depth > MaxExprDepth || !isUnsigned32(E->getType(), Ctx))
    return nullptr;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    return subtractionIn(Cast->getSubExpr(), Writes, Ctx, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && Writes.keepsInitialValue(V)
               ? subtractionIn(V->getInit(), Writes, Ctx, Depth + 1)
               : nullptr;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_Sub) {
    std::optional<int64_t> C = constantOf(BO->getRHS(), Ctx);
    if (C && *C > 0 && !constantOf(BO->getLHS(), Ctx))
      return BO;
  }
  if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Mul ||
      BO->getOpcode() == BO_Sub) {
    if (const BinaryOperator *S =
            subtractionIn(BO->getLHS(), Writes, Ctx, Depth + 1))
      return S;
    if (BO->getOpcode() != BO_Sub)
      return subtractionIn(BO->getRHS(), Writes, Ctx, Depth + 1);
  }
  return nullptr;
}

// A __shared__ or local array: 32-bit addressing, nothing to widen.
inline bool isArrayBase(const Expr *Base) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(Base->IgnoreParens());
  return Cast && Cast->getCastKind() == CK_ArrayToPointerDecay;
}

// Whether two indices are the same arithmetic, each on its own loop's
// counter (i * stride in one loop, j * stride in the other): the compiler
// computes such offsets once for both loops where it unrolls them.
inline bool sameIndex(const Expr *A, const VarDecl *CA, const Expr *B,
                      const VarDecl *CB, const ASTContext &Ctx,
                      unsigned Depth = 0) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (Depth > MaxExprDepth)
    return false;
  if (std::optional<int64_t> X = constantOf(A, Ctx))
    return constantOf(B, Ctx) == X;
  if (builtinName(A) || builtinName(B))
    return builtinName(A) == builtinName(B);
  if (const VarDecl *VA = varOf(A)) {
    const VarDecl *VB = varOf(B);
    return VB && (VA == CA ? VB == CB : VA == VB && VB != CB);
  }
  const auto *BA = dyn_cast<BinaryOperator>(A);
  const auto *BB = dyn_cast<BinaryOperator>(B);
  return BA && BB && BA->getOpcode() == BB->getOpcode() &&
         sameIndex(BA->getLHS(), CA, BB->getLHS(), CB, Ctx, Depth + 1) &&
         sameIndex(BA->getRHS(), CA, BB->getRHS(), CB, Ctx, Depth + 1);
}

inline size_t findGroup(std::vector<size_t> &Group, size_t I) {
  while (Group[I] != I)
    I = Group[I] = Group[Group[I]];
  return I;
}

} // namespace warplint::arith::unsigned_index
