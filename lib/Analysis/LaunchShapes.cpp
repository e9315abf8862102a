// The block shape of a kernel's launches, folded from arguments written with
// constants: the lanes of a warp for the memory checks, the launch checks.
#include "Analysis/AffineIndex.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/Launches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;

namespace warplint {

// A positive integer written with constants: a literal, a constexpr or
// const variable, a macro, an enumerator (what the constant evaluator
// folds), or a local initialised so and never written again.
static std::optional<unsigned>
literalCount(const Expr *E, const ASTContext &Ctx,
             llvm::function_ref<bool(const VarDecl *)> KeepsInit,
             unsigned Depth) {
  if (!E || Depth > 4 || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.isStrictlyPositive() && V.getActiveBits() <= 32)
      return unsigned(V.getZExtValue());
    return std::nullopt;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (V && V->isLocalVarDecl() && V->getType()->isIntegralOrEnumerationType() &&
      KeepsInit(V))
    return literalCount(V->getInit(), Ctx, KeepsInit, Depth + 1);
  return std::nullopt;
}

// The values an integer takes when it is written as a choice of constants:
// `c ? 1024 : 768`, arithmetic on such choices (`block_size / 32`), a local
// initialised so and never written again. Up to MaxChoices values.
static void literalChoices(const Expr *E, const ASTContext &Ctx,
                           llvm::function_ref<bool(const VarDecl *)> KeepsInit,
                           unsigned Depth, llvm::SmallVectorImpl<int64_t> &Out,
                           bool &Known) {
  constexpr size_t MaxChoices = 8;
  if (!Known)
    return;
  if (!E || Depth > 16 || E->isValueDependent() ||
      !E->getType()->isIntegralOrEnumerationType()) {
    Known = false;
    return;
  }
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx)) {
    Out.push_back(R.Val.getInt().getExtValue());
    return;
  }
  E = E->IgnoreParenImpCasts();
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    literalChoices(CO->getTrueExpr(), Ctx, KeepsInit, Depth + 1, Out, Known);
    literalChoices(CO->getFalseExpr(), Ctx, KeepsInit, Depth + 1, Out, Known);
  } else if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    literalChoices(CE->getSubExpr(), Ctx, KeepsInit, Depth + 1, Out, Known);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->isLocalVarDecl() && V->getInit() && KeepsInit(V))
      literalChoices(V->getInit(), Ctx, KeepsInit, Depth + 1, Out, Known);
    else
      Known = false;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && (BO->isMultiplicativeOp() || BO->isAdditiveOp())) {
    llvm::SmallVector<int64_t, 4> L, Rv;
    literalChoices(BO->getLHS(), Ctx, KeepsInit, Depth + 1, L, Known);
    literalChoices(BO->getRHS(), Ctx, KeepsInit, Depth + 1, Rv, Known);
    for (int64_t A : L)
      for (int64_t B : Rv) {
        switch (BO->getOpcode()) {
        case BO_Mul:
          Out.push_back(A * B);
          break;
        case BO_Div:
          if (!B)
            Known = false;
          else
            Out.push_back(A / B);
          break;
        case BO_Rem:
          if (!B)
            Known = false;
          else
            Out.push_back(A % B);
          break;
        case BO_Add:
          Out.push_back(A + B);
          break;
        default:
          Out.push_back(A - B);
          break;
        }
      }
  } else {
    Known = false;
  }
  if (Out.size() > MaxChoices)
    Known = false;
}

// The value of a dim3 argument when it is written with constants: 256,
// dim3(16, 16), dim3(TILE, TILE), a local `dim3 block(16, 16)` (or
// `= dim3(..)`, `{..}`) or `int threads = 256` that is never written after
// its initialisation, or a const global dim3.
// With RuntimeZ, a z that is not written with constants is taken as 1 and
// *RuntimeZ set: the warps are the same whatever z is when x * y is a
// multiple of the warp size (the caller's to check).
static std::optional<BlockShape>
literalShape(const Expr *E, const ASTContext &Ctx,
             llvm::function_ref<bool(const VarDecl *)> KeepsInit,
             unsigned Depth = 0, bool *RuntimeZ = nullptr) {
  if (!E || Depth > 4 || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return literalShape(MT->getSubExpr(), Ctx, KeepsInit, Depth + 1, RuntimeZ);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return literalShape(FC->getSubExpr(), Ctx, KeepsInit, Depth + 1, RuntimeZ);
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor() &&
        Ctor->getNumArgs() == 1)
      return literalShape(Ctor->getArg(0), Ctx, KeepsInit, Depth + 1, RuntimeZ);
    BlockShape S;
    unsigned *Dims[] = {&S.X, &S.Y, &S.Z};
    for (unsigned I = 0; I < Ctor->getNumArgs() && I < 3; ++I) {
      const Expr *Arg = Ctor->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      std::optional<unsigned> V = literalCount(Arg, Ctx, KeepsInit, Depth + 1);
      if (!V && I == 2 && RuntimeZ) {
        *RuntimeZ = true;
        llvm::SmallVector<int64_t, 4> Choices;
        bool Known = true;
        literalChoices(Arg, Ctx, KeepsInit, Depth + 1, Choices, Known);
        if (Known &&
            llvm::all_of(Choices, [](int64_t Z) { return Z > 0 && Z <= 1024; }))
          for (int64_t Z : Choices)
            S.ZChoices.push_back(unsigned(Z));
        llvm::sort(S.ZChoices);
        S.ZChoices.erase(llvm::unique(S.ZChoices), S.ZChoices.end());
        break;
      }
      if (!V)
        return std::nullopt;
      *Dims[I] = *V;
    }
    return S.X ? std::optional<BlockShape>(S) : std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->isLocalVarDecl() && V->getInit() && KeepsInit(V))
      return literalShape(V->getInit(), Ctx, KeepsInit, Depth + 1, RuntimeZ);
    // A const global dim3: its initialiser (an integer one is folded below).
    if (V && !V->isLocalVarDecl() && !isa<ParmVarDecl>(V) &&
        V->getType().isConstQualified() && V->getType()->isRecordType() &&
        V->getInit())
      return literalShape(V->getInit(), Ctx, KeepsInit, Depth + 1);
    if (!V || V->isLocalVarDecl() || !V->getType().isConstQualified())
      return std::nullopt;
  }
  if (std::optional<unsigned> N = literalCount(E, Ctx, KeepsInit, Depth + 1)) {
    BlockShape S;
    S.X = *N;
    return S;
  }
  return std::nullopt;
}

std::optional<BlockShape> AffineAnalysis::literalShapeOf(const Expr *E,
                                                         bool *RuntimeZ) {
  return literalShape(
      E, Ctx, [&](const VarDecl *V) { return keepsInitialValue(V); }, 0,
      RuntimeZ);
}

std::optional<uint64_t> AffineAnalysis::literalValueOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  Expr::EvalResult R;
  const Expr *Plain = E->IgnoreImplicit();
  if (!Plain->isValueDependent() &&
      Plain->getType()->isIntegralOrEnumerationType() &&
      Plain->EvaluateAsInt(R, Ctx) && !R.Val.getInt().isNegative())
    return R.Val.getInt().getZExtValue(); // literals, constexpr, macros
  if (auto S = literalShapeOf(E); S && S->Y == 1 && S->Z == 1)
    return S->X;
  return std::nullopt;
}

// The value local V holds at Launch when the statements just before it, in
// the block that holds it, assign V (`block = 128;` then `k<<<grid,
// block>>>()`), with nothing else in between that writes it: the assigned
// expression, or null.
static const Expr *assignedJustBefore(const CallExpr *Launch, const VarDecl *V,
                                      ASTContext &Ctx) {
  const Stmt *Child = Launch;
  for (unsigned Up = 0; Up < 4; ++Up) {
    auto Parents = Ctx.getParents(*Child);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *CS = Parents[0].get<CompoundStmt>()) {
      auto It = llvm::find(CS->body(), Child);
      while (It != CS->body_begin()) {
        const Stmt *S = *--It;
        const Expr *E = dyn_cast<Expr>(S);
        E = E ? E->IgnoreImplicit() : nullptr;
        const Expr *LHS = nullptr, *RHS = nullptr;
        if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
            BO && BO->getOpcode() == BO_Assign)
          LHS = BO->getLHS(), RHS = BO->getRHS();
        else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
                 Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
          LHS = Op->getArg(0), RHS = Op->getArg(1);
        const auto *DRE =
            LHS ? dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
        if (DRE && DRE->getDecl() == V)
          return RHS;
        if (writesTo(S, V))
          return nullptr;
      }
      return nullptr;
    }
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || !isa<ExprWithCleanups, ImplicitCastExpr>(P))
      return nullptr;
    Child = P;
  }
  return nullptr;
}

std::optional<AffineAnalysis::LaunchGrids>
AffineAnalysis::launchGrids(const FunctionDecl *Kernel) {
  std::vector<const FunctionDecl *> Forms{Kernel->getCanonicalDecl()};
  if (const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate())
    for (const FunctionDecl *Spec : T->specializations())
      Forms.push_back(Spec->getCanonicalDecl());
  std::optional<LaunchGrids> Out;
  for (const FunctionDecl *F : Forms) {
    auto It = Grids.find(F);
    if (It == Grids.end())
      continue;
    if (!Out)
      Out = LaunchGrids();
    Out->AllConstant &= It->second.AllConstant;
    if (It->second.MaxBlocks &&
        (!Out->MaxBlocks || *It->second.MaxBlocks > *Out->MaxBlocks))
      Out->MaxBlocks = It->second.MaxBlocks;
  }
  return Out;
}

void AffineAnalysis::recordLaunch(const CallExpr *Launch) {
  // A launch in a template's pattern is seen again, with its arguments'
  // values, in each instantiation; one never instantiated never runs.
  if (!Launch || Launch->isInstantiationDependent() ||
      !SeenLaunches.insert(Launch).second)
    return;
  LaunchSite Site = launchSite(Launch);
  const FunctionDecl *Kernel = Site.Kernel;
  if (!Kernel)
    return;
  LaunchGrids &G = Grids[Kernel];
  std::optional<uint64_t> Blocks =
      Site.Grid ? gridBlocksOf(Site.Grid, Ctx) : std::nullopt;
  G.AllConstant &= Blocks.has_value();
  if (Blocks && (!G.MaxBlocks || *Blocks > *G.MaxBlocks))
    G.MaxBlocks = Blocks;
  if (Unpinned.count(Kernel))
    return;
  // dim3(4, 8, n): a warp is 4 x 8 lanes of one z-slice, whatever n is.
  bool RuntimeZ = false;
  std::optional<BlockShape> S = literalShapeOf(Site.Block, &RuntimeZ);
  const Expr *Named = Site.Block;
  while (Named) { // the copy of a dim3 local the launch passes
    Named = Named->IgnoreImplicit();
    const auto *Copy = dyn_cast<CXXConstructExpr>(Named);
    if (!Copy || Copy->getNumArgs() != 1)
      break;
    Named = Copy->getArg(0);
  }
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Named); !S && DRE)
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl())
      if (const Expr *Value = assignedJustBefore(Launch, V, Ctx))
        S = literalShapeOf(Value, &RuntimeZ);
  if (S && RuntimeZ && (S->X * S->Y) % WarpSize != 0)
    S = std::nullopt;
  if (S)
    S->RuntimeZ = RuntimeZ;
  auto It = Shapes.find(Kernel);
  if (!S || (It != Shapes.end() &&
             (It->second.X != S->X || It->second.Y != S->Y ||
              It->second.Z != S->Z || It->second.RuntimeZ != S->RuntimeZ))) {
    Shapes.erase(Kernel);
    Unpinned.insert(Kernel);
    return;
  }
  // Launches that differ only in a run-time z: the union of their choices,
  // unknown when one of them is.
  if (It != Shapes.end() && S->RuntimeZ) {
    It->second.joinZChoices(S->ZChoices);
    return;
  }
  Shapes[Kernel] = *S;
}

} // namespace warplint
