#include "Analysis/LaneEngine.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/Launches.h"
#include "Analysis/Loops.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include <optional>

using namespace clang;

namespace warplint {

LaneEngine::LaneEngine(ASTContext &Ctx, unsigned WarpSize)
    : Ctx(Ctx), WarpSize(WarpSize),
      Affine(std::make_unique<AffineAnalysis>(Ctx, TDA, WarpSize)) {}

const CallGraphView &LaneEngine::callGraph() {
  if (!Calls)
    Calls = std::make_unique<CallGraphView>(Ctx);
  return *Calls;
}

// Two shapes the same for every lane: the literal extents, or both unknown.
static bool sameLanes(const BlockShape &A, const BlockShape &B) {
  return A.X == B.X && A.Y == B.Y && A.Z == B.Z && A.RuntimeZ == B.RuntimeZ;
}

// Two launches' shapes joined: the same x, y, z (the run-time z choices
// united), or nothing.
static std::optional<BlockShape> agree(std::optional<BlockShape> A,
                                       const BlockShape &B) {
  if (!A)
    return B;
  if (!sameLanes(*A, B))
    return std::nullopt;
  A->joinZChoices(B.ZChoices);
  return A;
}

BlockShape LaneEngine::kernelShape(const FunctionDecl *Kernel) {
  const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
  if (!T)
    return Affine->blockShape(Kernel);
  std::optional<BlockShape> Out;
  for (const FunctionDecl *Spec : T->specializations()) {
    BlockShape S = Affine->blockShape(Spec);
    if (!S.pinned())
      return {};
    Out = agree(Out, S);
    if (!Out)
      return {};
  }
  return Out ? *Out : BlockShape();
}

BlockShape LaneEngine::shape(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  auto It = Shapes.find(F);
  if (It != Shapes.end())
    return It->second;
  BlockShape Result;
  if (F->hasAttr<CUDAGlobalAttr>()) {
    Result = kernelShape(F);
  } else {
    llvm::SmallVector<const FunctionDecl *, 4> Kernels;
    std::optional<BlockShape> Out;
    if (kernelsReaching(F, Kernels)) {
      for (const FunctionDecl *K : Kernels) {
        BlockShape S = kernelShape(K);
        Out = S.pinned() ? agree(Out, S) : std::nullopt;
        if (!Out)
          break;
      }
    }
    if (Out)
      Result = *Out;
  }
  Shapes[F] = Result;
  return Result;
}

bool LaneEngine::kernelsReaching(
    const FunctionDecl *F, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
    unsigned Depth) {
  if (F->hasAttr<CUDAGlobalAttr>()) {
    if (!llvm::is_contained(Out, F))
      Out.push_back(F);
    return true;
  }
  if (Depth > MaxDeviceCallDepth)
    return false;
  auto Key = std::make_pair(F, Depth);
  auto Known = Reaching.find(Key);
  if (Known == Reaching.end()) {
    llvm::SmallVector<const FunctionDecl *, 4> Found;
    bool Any = false, Ok = true;
    for (const CallSite &Site : callGraph().callers(F)) {
      if (Site.Caller->isDependentContext())
        continue; // its instantiations call it too
      if (!kernelsReaching(Site.Caller, Found, Depth + 1)) {
        Ok = false;
        break;
      }
      Any = true;
    }
    std::optional<llvm::SmallVector<const FunctionDecl *, 4>> Answer;
    if (Ok && Any)
      Answer = std::move(Found);
    Known = Reaching.try_emplace(Key, std::move(Answer)).first;
  }
  if (!Known->second)
    return false;
  for (const FunctionDecl *K : *Known->second)
    if (!llvm::is_contained(Out, K))
      Out.push_back(K);
  return true;
}

FunctionDependence &LaneEngine::callerUniformity(const FunctionDecl *F,
                                                 unsigned Depth) {
  if (F->hasAttr<CUDAGlobalAttr>() || F->param_empty() ||
      Depth > MaxDeviceCallDepth)
    return uniformity(F);
  auto Key = std::make_pair(F, Depth);
  if (FunctionDependence *Known = CallerContexts.lookup(Key))
    return *Known;
  FunctionDependence *Result = &uniformity(F);
  llvm::ArrayRef<CallSite> Calls = callGraph().callers(F);
  llvm::SmallVector<Dependence, 4> Args(F->getNumParams(), Dependence::Uniform);
  bool Bound = !Calls.empty();
  for (const CallSite &Site : Calls) {
    if (Site.Caller->isDependentContext()) {
      Bound = false; // its instantiations call F too
      break;
    }
    FunctionDependence &CD = callerUniformity(Site.Caller, Depth + 1);
    for (const ParmVarDecl *P : F->parameters()) {
      unsigned I = P->getFunctionScopeIndex();
      const Expr *Arg = argumentFor(Site.Call, I);
      Args[I] = join(Args[I], Arg ? CD.dependence(Arg) : Dependence::Unknown);
    }
  }
  if (Bound)
    Result = &TDA.forContext(F, Args);
  CallerContexts[Key] = Result;
  return *Result;
}

// How many callers deep a helper's parameters are bound, and how many calls
// of one helper are followed.
constexpr unsigned MaxBoundCallDepth = 3;
constexpr unsigned MaxBoundCalls = 16;

LaneEvaluator LaneEngine::lanes(const FunctionDecl *F,
                                const BlockShape &Shape) {
  LaneEvaluator E(F, Shape, WarpSize);
  useForms(E);
  bindParameters(E, Shape, 0);
  return E;
}

void LaneEngine::useForms(LaneEvaluator &E) {
  // The affine forms model a kernel's lanes by its own launches: they are
  // E's values only where that is E's shape (a shape the forms assumed,
  // `threadIdx.x % 32` as the lane, would be wrong under another).
  const FunctionDecl *F = E.function();
  const BlockShape &Shape = E.shape();
  if (F->hasAttr<CUDAGlobalAttr>()) {
    if (sameLanes(Affine->blockShape(F), Shape))
      E.useForms(*Affine, F);
    return;
  }
  if (!Shape.pinned()) {
    E.useForms(*Affine, nullptr);
    return;
  }
  llvm::SmallVector<const FunctionDecl *, 4> Kernels;
  if (!kernelsReaching(F, Kernels))
    return;
  for (const FunctionDecl *K : Kernels)
    if (sameLanes(Affine->blockShape(K), Shape)) {
      E.useForms(*Affine, K);
      return;
    }
}

void LaneEngine::bindParameters(LaneEvaluator &E, const BlockShape &Shape,
                                unsigned Depth) {
  const FunctionDecl *F = E.function();
  if (F->hasAttr<CUDAGlobalAttr>() || Depth >= MaxBoundCallDepth ||
      llvm::none_of(F->parameters(), [](const ParmVarDecl *P) {
        return P->getType()->isIntegralOrEnumerationType();
      }))
    return;
  llvm::ArrayRef<CallSite> Calls = callGraph().callers(F);
  if (Calls.empty() || Calls.size() > MaxBoundCalls)
    return;
  llvm::DenseMap<const ParmVarDecl *, std::vector<LaneEvaluator::ArgSource>>
      Sources;
  // One evaluator per calling function, shared by its calls of F.
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<LaneEvaluator>> Callers;
  for (const CallSite &Site : Calls) {
    if (Site.Caller->isDependentContext())
      return; // its instantiations call F too, with their own arguments
    std::shared_ptr<LaneEvaluator> &Caller = Callers[Site.Caller];
    if (!Caller) {
      Caller = std::make_shared<LaneEvaluator>(Site.Caller, Shape, WarpSize);
      useForms(*Caller);
      bindParameters(*Caller, Shape, Depth + 1);
    }
    for (const ParmVarDecl *P : F->parameters())
      if (P->getType()->isIntegralOrEnumerationType())
        // (A default argument is not followed: the parameter stays unbound.)
        Sources[P].push_back(
            {argumentFor(Site.Call, P->getFunctionScopeIndex()), Caller});
  }
  llvm::SmallVector<const ParmVarDecl *, 4> Defaulted;
  for (auto &[P, List] : Sources)
    if (llvm::any_of(List, [](const auto &A) { return !A.Arg; }))
      Defaulted.push_back(P);
  for (const ParmVarDecl *P : Defaulted)
    Sources.erase(P);
  E.bindParameters(std::move(Sources));
}

// `for (i = threadIdx.x; i < N; i += S)`, S blockDim.x or a constant: with
// blockDim.x launched as X <= S and N a multiple of S, thread t < X runs
// ceil((N - t) / S) = N / S iterations, the same in every thread (one each
// when N == S: `for (pos = tid; pos < SUM_N; pos += blockSize)` with both 256
// and 256 threads launched). The counter must not be written in the body.
// Whether E is a multiple of S however large its other factors: a constant
// multiple, a product with such a factor (`TB * ((n + TB - 1) / TB)`), a
// sum of multiples, a local initialised so and never written in Body.
// The constants every launch in the file passes for a kernel's parameter.
using ArgValuesFn =
    llvm::function_ref<std::optional<llvm::SmallVector<int64_t, 4>>(
        const ParmVarDecl *)>;

static bool multipleOf(const Expr *E, uint64_t S, const ASTContext &Ctx,
                       const Stmt *Body, ArgValuesFn Args, unsigned Depth = 0) {
  if (!E || !S || Depth > 8 || E->isValueDependent())
    return false;
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return !R.Val.getInt().isNegative() &&
           R.Val.getInt().getZExtValue() % S == 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Mul)
      return multipleOf(BO->getLHS(), S, Ctx, Body, Args, Depth + 1) ||
             multipleOf(BO->getRHS(), S, Ctx, Body, Args, Depth + 1);
    if (BO->getOpcode() == BO_Add)
      return multipleOf(BO->getLHS(), S, Ctx, Body, Args, Depth + 1) &&
             multipleOf(BO->getRHS(), S, Ctx, Body, Args, Depth + 1);
    return false;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // A kernel parameter every launch in the file passes a multiple for
  // (cuSZ's histogram: `chunk`, 32768 at its one launch, 256 threads).
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V)) {
    if (writesTo(Body, P))
      return false;
    auto Values = Args(P);
    return Values && !Values->empty() && llvm::all_of(*Values, [&](int64_t X) {
             return X > 0 && uint64_t(X) % S == 0;
           });
  }
  return V && V->isLocalVarDecl() && V->getInit() && !writesTo(Body, V) &&
         multipleOf(V->getInit(), S, Ctx, Body, Args, Depth + 1);
}

static bool blockStrideTrips(const ForStmt *For, unsigned X,
                             const ASTContext &Ctx, FunctionDependence &FD,
                             ArgValuesFn Args) {
  if (!For->getInit() || !For->getCond() || !For->getInc() || !X)
    return false;
  auto IsComponent = [](const Expr *E, llvm::StringRef Type) {
    auto B = cudaBuiltinComponent(E);
    return B && B->first == Type && B->second == "x";
  };
  auto Constant = [&](const Expr *E) -> std::optional<uint64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt().isNegative())
      return std::nullopt;
    return R.Val.getInt().getZExtValue();
  };
  std::optional<ForCounter> C = forCounter(For);
  if (!C || !IsComponent(C->Start->IgnoreParenImpCasts(),
                         "__cuda_builtin_threadIdx_t"))
    return false;
  const VarDecl *Counter = C->Var;
  auto IsCounter = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Counter;
  };
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParens());
  if (!Cond || Cond->getOpcode() != BO_LT || !IsCounter(Cond->getLHS()))
    return false;
  const auto *Inc = dyn_cast<CompoundAssignOperator>(For->getInc());
  if (!Inc || Inc->getOpcode() != BO_AddAssign || !IsCounter(Inc->getLHS()))
    return false;
  std::optional<uint64_t> S = IsComponent(Inc->getRHS()->IgnoreParenImpCasts(),
                                          "__cuda_builtin_blockDim_t")
                                  ? std::optional<uint64_t>(X)
                                  : Constant(Inc->getRHS());
  // (A bound padded to the stride at run time is a multiple all the same.)
  if (!S || *S < X || FD.dependence(Cond->getRHS()) != Dependence::Uniform ||
      !multipleOf(Cond->getRHS(), *S, Ctx, FD.function()->getBody(), Args))
    return false;
  return !writesTo(For->getBody(), Counter);
}

// Whether Cond has the same value in every thread of a block of Shape, each
// thread evaluated (a bool's truth, a switch's value).
static bool sameInEveryThread(const Expr *Cond, bool Truth, LaneEvaluator &E) {
  std::optional<int64_t> First;
  for (unsigned W = 0; W < E.warpCount(); ++W)
    for (unsigned L = 0; L < E.warpSize(); ++L) {
      std::optional<ThreadId> T = E.thread(W, L);
      if (!T)
        continue;
      std::optional<int64_t> V = E.eval(Cond, *T);
      if (!V)
        return false;
      int64_t Value = Truth ? *V != 0 : *V;
      if (First && *First != Value)
        return false;
      First = Value;
    }
  return First.has_value();
}

std::optional<llvm::SmallVector<int64_t, 4>>
LaneEngine::launchedArguments(const FunctionDecl *Kernel,
                              const FunctionDecl *Fn, const ParmVarDecl *P) {
  // Only the kernel's own parameters (a helper's come from its calls).
  if (Kernel != Fn || P->getDeclContext() != Fn)
    return std::nullopt;
  if (!Launches)
    Launches = userLaunches(Ctx);
  unsigned I = P->getFunctionScopeIndex();
  llvm::SmallVector<int64_t, 4> Out;
  for (const CallExpr *L : *Launches) {
    if (launchSite(L).Kernel != Kernel->getCanonicalDecl())
      continue;
    const auto *K = dyn_cast<CUDAKernelCallExpr>(L);
    if (!K || I >= K->getNumArgs())
      return std::nullopt; // cudaLaunchKernel's void **: not followed
    const Expr *A = K->getArg(I)->IgnoreImplicit();
    Expr::EvalResult R;
    if (A->isValueDependent() || !A->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    Out.push_back(R.Val.getInt().getExtValue());
  }
  if (Out.empty())
    return std::nullopt;
  return Out;
}

bool LaneEngine::sameForLaunch(const Stmt *Where, const FunctionDecl *F,
                               const FunctionDecl *Kernel) {
  if (!Where || !F)
    return false;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Where);
  if (!Loop && !FunctionDependence::conditionOf(Where))
    return false;
  // The instances of the statement: in F, or in each instantiation of F's
  // template (the same kind of statement at the same place).
  llvm::SmallVector<std::pair<const FunctionDecl *, const Stmt *>, 4> Inst;
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : T->specializations()) {
      const Stmt *Same = nullptr;
      forEachStmt(Spec->getBody(), [&](const Stmt *S) {
        if (S->getStmtClass() == Where->getStmtClass() &&
            S->getBeginLoc() == Where->getBeginLoc())
          Same = S;
        return Same ? WalkStep::Stop : WalkStep::Continue;
      });
      if (!Same)
        return false;
      Inst.push_back({Spec, Same});
    }
  } else if (!F->isDependentContext()) {
    Inst.push_back({F, Where});
  }
  if (Inst.empty())
    return false;
  for (auto [Fn, S] : Inst) {
    llvm::SmallVector<const FunctionDecl *, 4> Kernels;
    if (Kernel && Kernel->hasAttr<CUDAGlobalAttr>() && Kernel != F)
      Kernels.push_back(Kernel); // reached through this call chain
    else if (!kernelsReaching(Fn, Kernels))
      return false;
    for (const FunctionDecl *K : Kernels) {
      BlockShape Shape = shape(K);
      if (!Shape.pinned() || Shape.RuntimeZ ||
          Shape.X * Shape.Y * Shape.Z > 1024)
        return false;
      if (Loop) {
        const auto *For = dyn_cast<ForStmt>(S);
        auto Args = [&](const ParmVarDecl *P) {
          return launchedArguments(K, Fn, P);
        };
        if (!For ||
            !blockStrideTrips(For, Shape.X, Ctx, TDA.forFunction(Fn), Args))
          return false;
        continue;
      }
      LaneEvaluator E = lanes(Fn, Shape);
      if (!sameInEveryThread(FunctionDependence::conditionOf(S),
                             !isa<SwitchStmt>(S), E))
        return false;
    }
  }
  return true;
}

const std::vector<WarpExchange> &
LaneEngine::exchanges(const FunctionDecl *Kernel) {
  auto It = Exchanges.find(Kernel);
  if (It == Exchanges.end())
    It = Exchanges.try_emplace(Kernel, findWarpExchanges(lanes(Kernel))).first;
  return It->second;
}

} // namespace warplint
