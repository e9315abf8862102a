#include "checks/arith/UnsignedIndexCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Analysis/Loops.h"
#include "Analysis/ThreadDependence.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <set>

using namespace clang;

namespace warplint::arith {

// A for loop with a counter: for (unsigned i = Start; ...; i++ / i += Step).
struct UnsignedIndexCheck::Loop {
  const ForStmt *For;
  const VarDecl *Counter;
  const Expr *Start;
  const Expr *Step; // i += Step; null for ++ and --
  bool Increasing;
  // The condition's bound when it is i < Bound (Inclusive: i <= Bound).
  const Expr *Bound = nullptr;
  bool Inclusive = false;
  // Stepped by ++, --, += 1 or -= 1.
  bool UnitStep = false;
  // The start and the step are constants: with a constant bound, a trip
  // count nvcc knows (and unrolls whole when it is small).
  bool ConstantTrip = false;
};

// a[Index] or p + Index.
struct UnsignedIndexCheck::Access {
  const Expr *E;
  const Expr *Base;
  const Expr *Index;
};

namespace {

bool isUnsigned32(QualType T, const ASTContext &Ctx) {
  return T->isUnsignedIntegerType() && !T->isBooleanType() &&
         Ctx.getIntWidth(T) == 32;
}

const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().tryExtValue();
}

// threadIdx.x, blockDim.y, ...: "threadIdx.x".
std::optional<std::string> builtinName(const Expr *E) {
  auto B = cudaBuiltinComponent(E);
  if (!B)
    return std::nullopt;
  llvm::StringRef Type = B->first;
  Type.consume_front("__cuda_builtin_");
  Type.consume_back("_t");
  return (Type + "." + B->second).str();
}

std::optional<UnsignedIndexCheck::Loop> loopOf(const ForStmt *FS,
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
bool contains(const Stmt *S, const Stmt *Target) {
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
bool isCounterPlusConstant(const Expr *Index, const UnsignedIndexCheck::Loop &L,
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

std::string quotedList(llvm::ArrayRef<std::string> Names) {
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

std::string describe(unsigned Why) {
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

bool containsJump(const Stmt *S) {
  return findStmt(S, Everything, [](const Stmt *N) {
    return isa<ReturnStmt, ContinueStmt, BreakStmt, GotoStmt>(N);
  });
}

// Whether Body leaves its loop other than through the loop's condition: a
// break of its own (not an inner loop's or switch's), a return, a goto.
bool leavesLoopEarly(const Stmt *Body) {
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
bool isGuarded(llvm::ArrayRef<const Stmt *> Path, const Stmt *Access,
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
const BinaryOperator *subtractionIn(const Expr *E, const LocalWrites &Writes,
                                    const ASTContext &Ctx, unsigned Depth = 0) {
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
bool isArrayBase(const Expr *Base) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(Base->IgnoreParens());
  return Cast && Cast->getCastKind() == CK_ArrayToPointerDecay;
}

// Whether two indices are the same arithmetic, each on its own loop's
// counter (i * stride in one loop, j * stride in the other): the compiler
// computes such offsets once for both loops where it unrolls them.
bool sameIndex(const Expr *A, const VarDecl *CA, const Expr *B,
               const VarDecl *CB, const ASTContext &Ctx, unsigned Depth = 0) {
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

size_t findGroup(std::vector<size_t> &Group, size_t I) {
  while (Group[I] != I)
    I = Group[I] = Group[Group[I]];
  return I;
}

} // namespace

void UnsignedIndexCheck::checkFunction(const FunctionDecl *F) {
  if (!isWrittenForDevice(F))
    return;
  LocalWrites Writes(F->getBody());
  const ASTContext &Ctx = F->getASTContext();
  std::vector<SlowLoop> Slow; // in the order the loops are met
  // Lambdas are functions of their own; sizeof's operand is not indexed.
  WalkOptions Code = WalkOptions().skipSizeof();
  forEachStmt(
      F->getBody(), Code,
      [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Path) {
        if (const auto *E = dyn_cast<Expr>(S); E && E->isValueDependent())
          return WalkStep::SkipChildren;
        std::vector<Loop> Loops; // the counted loops around, outermost first
        for (const Stmt *P : Path)
          if (const auto *FS = dyn_cast<ForStmt>(P))
            if (std::optional<Loop> L = loopOf(FS, Ctx))
              Loops.push_back(*L);
        if (const auto *FS = dyn_cast<ForStmt>(S)) {
          if (std::optional<Loop> L = loopOf(FS, Ctx))
            checkLoopStart(*L, Loops, Path, Writes);
          return WalkStep::Continue;
        }
        std::optional<Access> A;
        if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
          A = Access{ASE, ASE->getBase(), ASE->getIdx()};
        else if (const auto *BO = dyn_cast<BinaryOperator>(S);
                 BO && BO->getOpcode() == BO_Add) {
          if (BO->getLHS()->getType()->isPointerType() &&
              BO->getRHS()->getType()->isIntegerType())
            A = Access{BO, BO->getLHS(), BO->getRHS()};
          else if (BO->getRHS()->getType()->isPointerType() &&
                   BO->getLHS()->getType()->isIntegerType())
            A = Access{BO, BO->getRHS(), BO->getLHS()};
        }
        if (!A || !isUnsigned32(A->Index->IgnoreParens()->getType(), Ctx))
          return WalkStep::Continue;
        collectSlowAccess(*A, Loops, Writes, F, Slow);
        checkWrap(*A, Loops, Path, Writes);
        return WalkStep::Continue;
      });
  reportSlowLoops(Slow);
}

void UnsignedIndexCheck::collectSlowAccess(const Access &A,
                                           llvm::ArrayRef<Loop> Loops,
                                           const LocalWrites &Writes,
                                           const FunctionDecl *F,
                                           std::vector<SlowLoop> &Slow) {
  if (isArrayBase(A.Base))
    return;
  const ASTContext &Ctx = context().astContext();
  llvm::SmallVector<IndexLeaf, 8> Leaves;
  collectAllLeaves(A.Index, Writes, Leaves);
  // The innermost loop whose counter the index follows.
  const Loop *L = nullptr;
  for (const Loop &Candidate : llvm::reverse(Loops))
    if (llvm::any_of(Leaves, [&](const IndexLeaf &X) {
          return X.V == Candidate.Counter;
        })) {
      L = &Candidate;
      break;
    }
  if (!L || isCounterPlusConstant(A.Index, *L, Ctx))
    return;
  // A loop with an exit of its own (a break, a return: ggml's "protect i0
  // from overflow" guard, a search that stops at a match) has no trip count
  // the compiler can compute, and nvcc -O3 compiles an int counter as it
  // does an unsigned one: the same widening each iteration, no stepped
  // pointer (13 against 13 instructions an iteration, unit step or grid
  // stride, break or return).
  if (leavesLoopEarly(L->For->getBody()))
    return;
  // An address computed once an iteration of a loop that runs another loop
  // each iteration (a grid-stride loop over paths, a time-step loop inside):
  // the widening is spread over the inner loop's work (MC_SingleAsianOptionP:
  // 351 against 355 instructions for the kernel, the inner loop unchanged).
  if (findStmt(L->For->getBody(), Everything, [&](const Stmt *S) {
        return isa<ForStmt, WhileStmt, DoStmt>(S) && !contains(S, A.E);
      }))
    return;
  // Locals computed from the counter are part of the index arithmetic; the
  // others are loop-invariant values whose own type is what counts.
  auto FollowsCounter = [&](const VarDecl *V) {
    llvm::SmallVector<IndexLeaf, 8> Inner;
    collectAllLeaves(V->getInit(), Writes, Inner);
    return llvm::any_of(Inner,
                        [&](const IndexLeaf &X) { return X.V == L->Counter; });
  };
  Leaves.clear();
  collectLeaves(A.Index, Writes, FollowsCounter, Leaves);
  if (L->Step)
    collectLeaves(L->Step, Writes, FollowsCounter, Leaves);
  // With a step other than 1, an unsigned exit test (i < n with an unsigned
  // n) alone keeps the compiler from stepping a pointer, the counter and
  // the step int or not (nvcc -O3: 11 instructions an iteration against
  // 7): the bound's declarations are part of the fix.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      L->For->getCond() ? L->For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!L->UnitStep && L->Bound && Cond &&
      isUnsigned32(Cond->getLHS()->getType(), Ctx))
    collectLeaves(
        L->Bound, Writes, [](const VarDecl *) { return false; }, Leaves);
  // The variables whose unsigned type makes the arithmetic unsigned; a
  // built-in or an opaque unsigned value would need a cast instead of a
  // declaration: not reported.
  std::vector<const VarDecl *> Vars;
  for (const IndexLeaf &X : Leaves) {
    QualType T = X.E->getType();
    if (!isUnsigned32(T, Ctx))
      continue;
    if (X.K != IndexLeaf::Var)
      return;
    if (!llvm::is_contained(Vars, X.V))
      Vars.push_back(X.V);
  }
  // An index whose range the compiler knows stays below 2^32 cannot wrap
  // (a constant trip count times a constant stride, a lane id): the PTX is
  // the same as for int.
  Bounds Range = RangeFinder(Loops, Writes, Ctx)(A.Index);
  if (Range.Hi && *Range.Hi <= UINT32_MAX)
    return;
  // Shared memory and local arrays are addressed with 32 bits: there is
  // nothing to widen (nvcc -O3 PTX is the same for int and unsigned).
  if (Vars.empty() ||
      context().affine().pointer(A.Base, F).Space == MemorySpace::Shared)
    return;
  auto It =
      llvm::find_if(Slow, [&](const SlowLoop &S) { return S.For == L->For; });
  if (It == Slow.end()) {
    Slow.push_back({L->For,
                    L->Counter,
                    L->ConstantTrip && L->Bound && constantOf(L->Bound, Ctx),
                    {},
                    {}});
    It = std::prev(Slow.end());
  }
  It->Accesses.push_back({A.Index, A.Base, Vars});
  for (const VarDecl *V : Vars)
    if (!llvm::is_contained(It->Vars, V))
      It->Vars.push_back(V);
}

void UnsignedIndexCheck::reportSlowLoops(std::vector<SlowLoop> &Slow) {
  // Loops whose accesses need the same declaration changed are one fix:
  // changing the declarations one loop names leaves the other loop's
  // arithmetic unsigned, and changing a shared one alone saves nothing
  // where the counter stays unsigned. One finding for them, the other
  // loops as notes.
  // So are unrolled loops that compute the same index, each on its own
  // counter (dct8x8's two 'for (unsigned i = 0; i < 8; i++)' loops over
  // 'i * ImgStride'): nvcc computes the unrolled offsets once for both, and
  // changing one counter alone adds an instruction (223 against 222) where
  // changing both saves 12.
  const ASTContext &Ctx = context().astContext();
  auto SameIndex = [&](const SlowLoop &A, const SlowLoop &B) {
    return A.Unrolled && B.Unrolled &&
           llvm::any_of(A.Accesses, [&](const SlowAccess &X) {
             return llvm::any_of(B.Accesses, [&](const SlowAccess &Y) {
               return sameIndex(X.Index, A.Counter, Y.Index, B.Counter, Ctx);
             });
           });
  };
  std::vector<size_t> Group(Slow.size());
  for (size_t I = 0; I < Slow.size(); ++I) {
    Group[I] = I;
    for (size_t J = 0; J < I; ++J)
      if (llvm::any_of(Slow[I].Vars,
                       [&](const VarDecl *V) {
                         return llvm::is_contained(Slow[J].Vars, V);
                       }) ||
          SameIndex(Slow[I], Slow[J])) {
        size_t A = findGroup(Group, I), B = findGroup(Group, J);
        Group[std::max(A, B)] = std::min(A, B); // the first loop leads
      }
  }
  for (size_t Root = 0; Root < Slow.size(); ++Root) {
    if (findGroup(Group, Root) != Root)
      continue;
    std::vector<const SlowLoop *> Loops;
    for (size_t I = Root; I < Slow.size(); ++I)
      if (findGroup(Group, I) == Root)
        Loops.push_back(&Slow[I]);
    reportGroup(Loops);
  }
}

void UnsignedIndexCheck::reportGroup(llvm::ArrayRef<const SlowLoop *> Loops) {
  const SlowLoop &First = *Loops.front();
  const SlowAccess &A = First.Accesses.front();
  std::vector<const VarDecl *> All;
  size_t Count = 0;
  for (const SlowLoop *L : Loops) {
    Count += L->Accesses.size();
    for (const VarDecl *V : L->Vars)
      if (!llvm::is_contained(All, V))
        All.push_back(V);
  }
  std::vector<std::string> Names; // two loops' counters may share a name
  for (const VarDecl *V : All)
    if (!llvm::is_contained(Names, V->getName().str()))
      Names.push_back(V->getName().str());
  std::vector<std::string> Counters;
  for (const SlowLoop *L : Loops)
    if (!llvm::is_contained(Counters, L->Counter->getName().str()))
      Counters.push_back(L->Counter->getName().str());
  std::string Where = Loops.size() == 1
                          ? "the loop over '" + Counters.front() + "'"
                          : "the " + std::to_string(Loops.size()) +
                                " loops over " + quotedList(Counters);
  FindingBuilder B =
      diag(A.Index->getBeginLoc(),
           "'{0}' indexes '{1}' with unsigned 32-bit arithmetic in {2}: "
           "unsigned overflow wraps, so the compiler cannot turn the address "
           "into a pointer stepped each iteration and recomputes it with a "
           "64-bit widening multiply (mul.wide.u32) instead; declare {3} int "
           "(CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. "
           "Unsigned')");
  B << context().sourceText(A.Index) << context().sourceText(A.Base) << Where
    << quotedList(Names);
  B.metric("accesses", double(Count));
  // Notes: each access that brings a declaration of its own into the fix,
  // and the first access of each other loop.
  std::vector<const VarDecl *> Named = First.Accesses.front().Vars;
  for (const SlowLoop *L : Loops) {
    for (size_t I = 0; I < L->Accesses.size(); ++I) {
      const SlowAccess &S = L->Accesses[I];
      if (L == &First && I == 0)
        continue;
      std::vector<std::string> New;
      for (const VarDecl *V : S.Vars)
        if (!llvm::is_contained(Named, V))
          New.push_back(V->getName().str());
      bool OtherLoop = L != &First && I == 0;
      if (New.empty() && !OtherLoop)
        continue;
      for (const VarDecl *V : S.Vars)
        if (!llvm::is_contained(Named, V))
          Named.push_back(V);
      std::string Loop = L == &First ? "in the same loop"
                                     : "in the loop over '" +
                                           L->Counter->getName().str() + "'";
      std::vector<std::string> AllOfIt;
      for (const VarDecl *V : S.Vars)
        AllOfIt.push_back(V->getName().str());
      std::string Why =
          OtherLoop ? Loop + ", which needs " + quotedList(AllOfIt)
                    : Loop + ", which needs " + quotedList(New) + " too";
      B.note(S.Index->getBeginLoc(), "'{0}' indexes '{1}' the same way {2}")
          << context().sourceText(S.Index) << context().sourceText(S.Base)
          << Why;
    }
  }
}

void UnsignedIndexCheck::checkLoopStart(const Loop &L,
                                        llvm::ArrayRef<Loop> Outer,
                                        llvm::ArrayRef<const Stmt *> Path,
                                        const LocalWrites &Writes) {
  const ASTContext &Ctx = context().astContext();
  if (!L.Increasing || !L.Bound || !isUnsigned32(L.Counter->getType(), Ctx))
    return;
  // for (unsigned j = i - w; j <= i + w; j++), or through a local that
  // keeps its value.
  const Expr *Start = L.Start->IgnoreParenImpCasts();
  if (const VarDecl *V = varOf(Start); V && Writes.keepsInitialValue(V))
    Start = V->getInit()->IgnoreParenImpCasts();
  const auto *Sub = dyn_cast<BinaryOperator>(Start);
  if (!Sub || Sub->getOpcode() != BO_Sub || !Sub->getType()->isIntegerType() ||
      Ctx.getIntWidth(Sub->getType()) != 32 || constantOf(Sub, Ctx))
    return;
  Bounds Range = RangeFinder(Outer, Writes, Ctx)(Sub->getLHS());
  if (!Range.Lo || Range.Why == 0)
    return;
  std::optional<int64_t> C = constantOf(Sub->getRHS(), Ctx);
  if (C && (*C <= 0 || uint64_t(*C) <= *Range.Lo))
    return;
  if (!C && *Range.Lo != 0)
    return; // below the smallest value the analysis knows of: unknown
  // A guard on the minuend (if (i >= w), a loop from w) keeps it up.
  GuardKeys Keys(Sub->getLHS(), Writes);
  if (isGuarded(Path, L.For, Keys))
    return;
  if (!ReportedWraps.insert(Sub->getExprLoc().getRawEncoding()).second)
    return;
  std::string X = context().sourceText(Sub->getLHS());
  std::string Y = context().sourceText(Sub->getRHS());
  std::string Text = context().sourceText(Sub);
  std::string Value =
      C ? "to " + std::to_string((uint64_t(1) << 32) + *Range.Lo - *C) +
              " when '" + X + "' is " + std::to_string(*Range.Lo) + " (" +
              describe(Range.Why) + ")"
        : "to a value near 2^32 when '" + X + "' is below '" + Y + "' (it is " +
              std::to_string(*Range.Lo) + " " + describe(Range.Why) + ")";
  diag(Sub->getBeginLoc(),
       "'{0}' wraps around {1}: the loop over '{2}' then starts above its "
       "bound '{3}' and is skipped without a word, so those threads do none "
       "of its work; start it at '{4} < {5} ? 0 : {0}' to clip the range at "
       "0, or guard the loop with '{4} >= {5}'")
      << Text << Value << L.Counter->getName() << context().sourceText(L.Bound)
      << X << Y;
}

void UnsignedIndexCheck::checkWrap(const Access &A, llvm::ArrayRef<Loop> Loops,
                                   llvm::ArrayRef<const Stmt *> Path,
                                   const LocalWrites &Writes) {
  const ASTContext &Ctx = context().astContext();
  const BinaryOperator *Sub = subtractionIn(A.Index, Writes, Ctx);
  if (!Sub)
    return;
  uint64_t C = uint64_t(*constantOf(Sub->getRHS(), Ctx));
  Bounds Range = RangeFinder(Loops, Writes, Ctx)(Sub->getLHS());
  if (!Range.Lo || *Range.Lo >= C || Range.Why == 0)
    return;
  GuardKeys Keys(Sub->getLHS(), Writes);
  if (isGuarded(Path, A.E, Keys))
    return;
  if (!ReportedWraps.insert(Sub->getExprLoc().getRawEncoding()).second)
    return;
  uint64_t Wrapped = (uint64_t(1) << 32) + *Range.Lo - C;
  std::string X = context().sourceText(Sub->getLHS());
  diag(Sub->getBeginLoc(),
       "'{0}' wraps around to {1} when '{2}' is {3} ({4}): the subtraction is "
       "unsigned 32-bit, so '{5}' is out of bounds; guard it with '{2} >= {6}'")
      << context().sourceText(Sub) << int64_t(Wrapped) << X
      << int64_t(*Range.Lo) << describe(Range.Why) << context().sourceText(A.E)
      << int64_t(C);
}

WARPLINT_CHECK_FACTORY(UnsignedIndexCheck)

} // namespace warplint::arith
