// The values of a loop's geometric induction variable (offset *= 2) where an
// access reads it, and the access's warp pattern for each of them.
#include "Analysis/AffineIndex.h"
#include "Analysis/AffineInternal.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace warplint {

// The constant factor of a step that multiplies V: v *= k, v <<= s,
// v = v * k, v = k * v, v = v << s.
static std::optional<int64_t>
geometricFactor(const VarDecl *V, const Expr *Value, const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Value);
  if (!BO || !BO->isAssignmentOp())
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *K = BO->getRHS();
  if (Op == BO_Assign) {
    const auto *R =
        dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (!R)
      return std::nullopt;
    Op = R->getOpcode() == BO_Mul   ? BO_MulAssign
         : R->getOpcode() == BO_Shl ? BO_ShlAssign
                                    : BO_Assign;
    if (asLocalVar(R->getLHS()) == V)
      K = R->getRHS();
    else if (Op == BO_MulAssign && asLocalVar(R->getRHS()) == V)
      K = R->getLHS();
    else
      return std::nullopt;
  }
  Expr::EvalResult Res;
  if (K->isValueDependent() || !K->getType()->isIntegralOrEnumerationType() ||
      !K->EvaluateAsInt(Res, Ctx))
    return std::nullopt;
  int64_t N = Res.Val.getInt().getExtValue();
  if (Op == BO_MulAssign && N >= 2 && N <= 1024)
    return N;
  if (Op == BO_ShlAssign && N >= 1 && N <= 10)
    return int64_t(1) << N;
  return std::nullopt;
}

static bool within(const Stmt *S, const Stmt *Ancestor,
                   FunctionDependence &FD) {
  for (; S; S = FD.parent(S))
    if (S == Ancestor)
      return true;
  return false;
}

std::vector<LoopValues> AffineAnalysis::loopValues(const Stmt *At,
                                                   const FunctionDecl *F) {
  std::vector<LoopValues> Out;
  FunctionDependence &FD = TDA.forFunction(F);
  const SourceManager &SM = Ctx.getSourceManager();
  const auto &AllDefs = definitions(F);
  // The loops around At, innermost first: the body's part of each.
  for (const Stmt *Child = At, *L = FD.parent(At); L;
       Child = L, L = FD.parent(L)) {
    const Stmt *Body = nullptr;
    const Expr *Cond = nullptr;
    const Stmt *Inc = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      Body = For->getBody(), Cond = For->getCond(), Inc = For->getInc();
    } else if (const auto *While = dyn_cast<WhileStmt>(L)) {
      Body = While->getBody(), Cond = While->getCond();
    } else if (const auto *Do = dyn_cast<DoStmt>(L)) {
      Body = Do->getBody(), Cond = Do->getCond();
    }
    if (!Body || Child != Body)
      continue;
    std::vector<LoopValues> Here;
    for (const auto &[V, D] : AllDefs) {
      if (D.Escaped || isa<ParmVarDecl>(V) ||
          !V->getType()->isIntegralOrEnumerationType())
        continue;
      std::optional<int64_t> Start, Factor;
      bool Ok = true, StepBeforeAt = false;
      for (auto &[Value, Site] : D.List) {
        bool InLoop = within(Site, Body, FD) || (Inc && within(Site, Inc, FD));
        if (std::optional<int64_t> K = geometricFactor(V, Value, Ctx);
            K && InLoop && (!Factor || *Factor == *K) &&
            isWarpUniform(definitionDependence(V, Site, true, FD))) {
          Factor = K;
          StepBeforeAt |= within(Site, Body, FD) &&
                          SM.isBeforeInTranslationUnit(Site->getEndLoc(),
                                                       At->getBeginLoc());
          continue;
        }
        // The start: an initialiser or plain assignment before the loop.
        const auto *Assign = dyn_cast<BinaryOperator>(Value);
        const Expr *StartE = isa<DeclStmt>(Site) ? Value
                             : Assign && Assign->getOpcode() == BO_Assign
                                 ? Assign->getRHS()
                                 : nullptr;
        std::optional<int64_t> C =
            StartE ? constant(StartE) : std::optional<int64_t>();
        if (!Start && !InLoop && C && *C > 0 &&
            isWarpUniform(FD.definitionGuard(V, Site).D))
          Start = C;
        else
          Ok = false;
      }
      if (!Ok || !Start || !Factor)
        continue;
      LoopValues LV;
      LV.Var = V;
      // The loop's test of V against a bound: v < b, v <= b, b > v, b >= v.
      std::optional<int64_t> Limit;
      bool Inclusive = false;
      if (const auto *C = dyn_cast_or_null<BinaryOperator>(
              Cond ? Cond->IgnoreParenImpCasts() : nullptr)) {
        const Expr *Other = nullptr;
        if (asLocalVar(C->getLHS()) == V &&
            (C->getOpcode() == BO_LT || C->getOpcode() == BO_LE))
          Other = C->getRHS(), Inclusive = C->getOpcode() == BO_LE;
        else if (asLocalVar(C->getRHS()) == V &&
                 (C->getOpcode() == BO_GT || C->getOpcode() == BO_GE))
          Other = C->getLHS(), Inclusive = C->getOpcode() == BO_GE;
        if (Other) {
          LV.Cond = C;
          AffineForm B = form(Other, F);
          if (B.Known && B.isLaneUniform() && !B.HasUniform) {
            Limit = B.Const;
            LV.Bounded = true;
          }
        }
      }
      // Without a bound: as far as 2^16, past the strides a warp of 32
      // lanes can tell apart.
      const int64_t Cap = int64_t(1) << (Limit ? 30 : 16);
      for (int64_t Cur = *Start; Cur <= Cap; Cur *= *Factor) {
        if (Limit && (Inclusive ? Cur > *Limit : Cur >= *Limit))
          break;
        LV.Values.push_back(StepBeforeAt ? Cur * *Factor : Cur);
      }
      if (!LV.Values.empty())
        Here.push_back(std::move(LV));
    }
    llvm::sort(Here, [&](const LoopValues &A, const LoopValues &B) {
      return SM.isBeforeInTranslationUnit(A.Var->getLocation(),
                                          B.Var->getLocation());
    });
    for (LoopValues &LV : Here)
      Out.push_back(std::move(LV));
  }
  return Out;
}

std::optional<std::pair<LoopValues, std::vector<WarpPattern>>>
AffineAnalysis::loopPatterns(const MemoryAccess &A, const FunctionDecl *F) {
  BlockShape Shape = blockShape(F);
  for (LoopValues &LV : loopValues(A.E, F)) {
    std::vector<WarpPattern> Patterns;
    for (int64_t Value : LV.Values) {
      Bound[LV.Var] = Value;
      const auto *Call = dyn_cast<CallExpr>(A.E);
      Address Addr = Call ? pointer(Call->getArg(0), F) : lvalue(A.E, F);
      Bound.erase(LV.Var);
      WarpPattern P = pattern(Addr.Offset, Shape);
      if (!Addr.Known || !P.Known || P.Offsets.empty() || P.SymbolicStride)
        break;
      Patterns.push_back(std::move(P));
    }
    if (Patterns.size() != LV.Values.size())
      continue;
    // Only when the lanes' spacing changes with V.
    auto Spacing = [](const WarpPattern &P) {
      std::vector<int64_t> D;
      for (int64_t O : P.Offsets)
        D.push_back(O - P.Offsets[0]);
      return D;
    };
    if (llvm::any_of(Patterns, [&](const WarpPattern &P) {
          return Spacing(P) != Spacing(Patterns[0]);
        }))
      return std::make_pair(std::move(LV), std::move(Patterns));
  }
  return std::nullopt;
}

} // namespace warplint
