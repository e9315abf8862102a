// The affine form of an integer expression: thread indices, constants,
// arithmetic, locals through their definitions, and small helpers inlined.
#include "Analysis/AffineIndex.h"
#include "Analysis/AffineInternal.h"
#include "Analysis/Budget.h"
#include "Support/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

std::optional<int64_t> AffineAnalysis::constant(const Expr *E) const {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

AffineForm AffineAnalysis::form(const Expr *E, const FunctionDecl *F) {
  return form(E, F, nullptr);
}

AffineForm AffineAnalysis::form(const Expr *E, const FunctionDecl *F,
                                const FunctionDecl *Kernel) {
  Env En{F, nullptr, nullptr, 0, nullptr, nullptr, Kernel};
  return formIn(E, En);
}

AffineForm AffineAnalysis::formIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (!E || Scope.exhausted())
    return AffineForm::unknown();
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return AffineForm::unknown();
  if (auto V = constant(E))
    return AffineForm::constant(*V);
  if (!E->getType()->isIntegralOrEnumerationType())
    return AffineForm::unknown();

  if (auto B = cudaBuiltinComponent(E)) {
    auto [Type, Field] = *B;
    int Index = Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : -1;
    if (Index < 0)
      return AffineForm::unknown();
    if (Type == "__cuda_builtin_threadIdx_t")
      return AffineForm::term(ThreadTerm(TermTx + Index));
    if (Type == "__cuda_builtin_blockDim_t") {
      if (std::optional<unsigned> D = shapeOf(En).dim(Index))
        return AffineForm::constant(*D);
    }
    return AffineForm::uniform(); // blockIdx, blockDim, gridDim
  }

  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_IntegralToBoolean:
      return formIn(CE->getSubExpr(), En);
    default:
      break;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return variable(V, En);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binary(BO, En);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus)
      return scale(formIn(UO->getSubExpr(), En), -1);
    if (UO->getOpcode() == UO_Plus)
      return formIn(UO->getSubExpr(), En);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
      return inlineCall(Call, En);

  // Anything the same in every thread is a uniform value, whatever it is.
  if (knowsDependence(En) && isWarpUniform(dependenceOf(En).dependence(E)))
    return AffineForm::uniform();
  return AffineForm::unknown();
}

// A known integer that divides the value of a uniform expression: the
// constant factors of a product or shift (2 * s, s << 2), else 1.
static int64_t uniformFactor(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(R, Ctx))
    return std::max<int64_t>(1, std::llabs(R.Val.getInt().getExtValue()));
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Mul)
      return uniformFactor(BO->getLHS(), Ctx) *
             uniformFactor(BO->getRHS(), Ctx);
    if (BO->getOpcode() == BO_Shl && BO->getRHS()->EvaluateAsInt(R, Ctx) &&
        R.Val.getInt().getExtValue() >= 0 && R.Val.getInt().getExtValue() < 31)
      return uniformFactor(BO->getLHS(), Ctx) << R.Val.getInt().getExtValue();
  }
  return 1;
}

int64_t AffineAnalysis::uniformFactor(const Expr *E) const {
  return warplint::uniformFactor(E, Ctx);
}

AffineForm AffineAnalysis::binary(const BinaryOperator *BO, const Env &En) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign)
    return formIn(BO->getRHS(), En);
  if (Op == BO_Comma)
    return formIn(BO->getRHS(), En);
  AffineForm L = formIn(BO->getLHS(), En);
  AffineForm R = formIn(BO->getRHS(), En);
  // A per-lane walk moved by a known value or scaled by a uniform one is
  // still a walk (val + j, 2 * j, j << 1); anything else is not followed.
  if (L.Walk || R.Walk) {
    const AffineForm &W = L.Walk ? L : R, &O = L.Walk ? R : L;
    bool Linear = Op == BO_Add || Op == BO_Sub ||
                  (Op == BO_Mul && O.Known && O.isLaneUniform()) ||
                  (Op == BO_Shl && L.Walk && O.Known && O.isLaneUniform());
    return O.Known && Linear ? W : AffineForm::unknown();
  }
  if (!L.Known || !R.Known)
    return AffineForm::unknown();
  // The right operand when it is a compile-time constant.
  bool HasRC = R.isLaneUniform() && !R.HasUniform;
  int64_t RC = HasRC ? R.Const : 0;
  bool BothUniform = L.isLaneUniform() && R.isLaneUniform();
  BlockShape Shape = shapeOf(En);
  // Within a warp threadIdx.x runs over 32 consecutive values when blockDim.x
  // is a multiple of 32 (or the block has at most 32 threads in x).
  bool WarpsAlongX = !Shape.pinned() || Shape.X % WarpSize == 0;
  bool SmallX = Shape.pinned() && Shape.X <= WarpSize;

  switch (Op) {
  case BO_Add:
    return add(L, R);
  case BO_Sub:
    return add(L, scale(R, -1));
  case BO_Mul: {
    if (!L.isLaneUniform() && !R.isLaneUniform())
      return AffineForm::unknown();
    const AffineForm &T = L.isLaneUniform() ? R : L;
    const AffineForm &U = L.isLaneUniform() ? L : R;
    const Expr *UE = L.isLaneUniform() ? BO->getLHS() : BO->getRHS();
    if (!U.HasUniform)
      return scale(T, U.Const);
    if (T.isLaneUniform())
      return AffineForm::uniform();
    std::string Name = sourceText(UE->IgnoreParenImpCasts(), Ctx);
    AffineForm R =
        scaleBySymbol(T, Name.empty() ? std::string("a run-time value") : Name);
    // Keep what is known of the run-time factor: 2 * s is even.
    int64_t Factor = uniformFactor(UE);
    if (Factor > 1)
      for (Coef &C : R.C)
        if (C.Symbolic)
          C.Factor *= Factor;
    return R;
  }
  case BO_Shl:
    if (HasRC && RC >= 0 && RC < 62)
      return scale(L, int64_t(1) << RC);
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  case BO_Div:
  case BO_Shr:
    if (HasRC &&
        ((Op == BO_Div && RC == WarpSize) ||
         (Op == BO_Shr && RC >= 0 && RC < 62 &&
          (int64_t(1) << RC) == WarpSize)) &&
        isExactly(L, TermTx)) {
      if (SmallX)
        return AffineForm::constant(0);
      if (WarpsAlongX)
        return AffineForm::uniform(); // the warp id
    }
    if (HasRC && RC == 1 && Op == BO_Div)
      return L;
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  case BO_Rem:
  case BO_And:
    if (HasRC && ((Op == BO_Rem && RC == WarpSize) ||
                  (Op == BO_And && RC == WarpSize - 1))) {
      if (isExactly(L, TermLane))
        return L;
      if (isExactly(L, TermTx)) {
        if (SmallX)
          return L;
        if (WarpsAlongX)
          return AffineForm::term(TermLane);
      }
    }
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  default:
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  }
}

const AffineAnalysis::Env *AffineAnalysis::ownerEnv(const VarDecl *V,
                                                    const Env &En) {
  for (const Env *E = &En; E; E = E->Outer)
    if (V->getDeclContext() == E->F)
      return E;
  return nullptr;
}

AffineForm AffineAnalysis::variable(const VarDecl *V, const Env &En) {
  // A lambda's capture ([=] or [&]) is the enclosing function's local; in
  // the lambda's body seen on its own, its value is not known.
  if (isCapture(V, En.F)) {
    const Env *Owner = ownerEnv(V, En);
    return Owner ? variable(V, *Owner) : AffineForm::unknown();
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (En.Params) {
      auto It = En.Params->find(P);
      return It != En.Params->end() ? It->second : AffineForm::unknown();
    }
    const auto &D = definitions(En.F);
    if (!D.count(V))
      return isKernel(En.F) ? AffineForm::uniform() : AffineForm::unknown();
  }
  // Globals, statics and __shared__ scalars: one location, so every thread
  // reads the same value.
  if (!V->isLocalVarDeclOrParm() || V->isStaticLocal() ||
      V->hasAttr<CUDASharedAttr>())
    return AffineForm::uniform();
  if (auto B = Bound.find(V); B != Bound.end())
    return AffineForm::constant(B->second);
  AffineForm F = followVariable(V, En, &AffineAnalysis::formIn);
  if (!F.Known && !En.Params && !V->getType()->isReferenceType()) {
    // A per-lane walk, directly or through a local that keeps its value.
    if (AffineForm W = laneWalk(V, En); W.Walk)
      return W;
    if (keepsInitialValue(V) && !InProgress.count(V)) {
      InProgress.insert(V);
      AffineForm I = formIn(V->getInit(), En);
      InProgress.erase(V);
      if (I.Walk)
        return I;
    }
  }
  // A local the analysis cannot follow (s *= 2) may still be the same in
  // every lane of a warp: then it is an opaque uniform value.
  if (!F.Known && knowsDependence(En) && !V->getType()->isReferenceType()) {
    const auto &AllDefs = definitions(En.F);
    auto It = AllDefs.find(V);
    bool Escaped = It != AllDefs.end() && It->second.Escaped;
    if (!Escaped && !InProgress.count(V)) {
      InProgress.insert(V);
      bool Uniform = true;
      FunctionDependence &FD = dependenceOf(En);
      for (auto &[Value, Site] : AllDefs.lookup(V).List) {
        const auto *BO = dyn_cast<BinaryOperator>(Value);
        const Expr *RHS = BO && BO->isAssignmentOp() ? BO->getRHS() : Value;
        if (!isWarpUniform(FD.dependence(RHS)) ||
            !isWarpUniform(FD.definitionGuard(V, Site).D))
          Uniform = false;
      }
      InProgress.erase(V);
      if (Uniform)
        return AffineForm::uniform();
    }
  }
  return F;
}

AffineForm AffineAnalysis::inlineCall(const CallExpr *Call, const Env &En) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  auto Fallback = [&] {
    if (knowsDependence(En) && isWarpUniform(dependenceOf(En).dependence(Call)))
      return AffineForm::uniform();
    return AffineForm::unknown();
  };
  if (!Def || !Def->getBody() || En.Depth >= 4)
    return Fallback();
  // A helper whose body ends in its only return.
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return Fallback();
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Ret || !Ret->getRetValue())
    return Fallback();
  for (const Stmt *S : Body->body())
    if (S != Ret && !isa<DeclStmt>(S))
      return Fallback();
  llvm::DenseMap<const ParmVarDecl *, AffineForm> Params;
  llvm::DenseMap<const ParmVarDecl *, Address> PtrParams;
  bindArguments(Call, Def, En, Params, PtrParams);
  Env Inner{Def, &Params, &PtrParams, En.Depth + 1, &En, nullptr, En.Kernel};
  AffineForm R = formIn(Ret->getRetValue(), Inner);
  return R.Known ? R : Fallback();
}

} // namespace warplint
