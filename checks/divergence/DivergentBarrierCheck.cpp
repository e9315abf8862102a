#include "checks/divergence/DivergentBarrierCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/CallGraph.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/LaneEval.h"
#include "Analysis/Loops.h"
#include "checks/divergence/BarrierSites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;

namespace warplint::divergence {

// ReportAllExits' message for a barrier after a thread-dependent exit.
static const char ExitHazardMessage[] =
    "'{0}' follows a thread-dependent exit: the threads that leave at '{1}' "
    "never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited "
    "threads), but HIP on AMD GPUs may wait for them and hang";

// A statement that runs nothing: `;`, `{}`, `return;`.
static bool isEmptyOrReturn(const Stmt *S) {
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(Block->body(), isEmptyOrReturn);
  const auto *R = dyn_cast<ReturnStmt>(S);
  return isa<NullStmt>(S) || (R && !R->getRetValue());
}

// `if (c) return;` (or `{ return; }`), with no else: the early exit.
static bool isReturnIf(const IfStmt *If) {
  return !If->getElse() && !isa<NullStmt>(If->getThen()) &&
         isEmptyOrReturn(If->getThen());
}

// Nothing runs after S in its function: S is the last statement of each
// block around it up to the body (or is followed only by a plain return),
// and no loop or switch encloses it. Threads leaving S leave the function.
static bool endsFunction(const Stmt *S, FunctionDependence &FD) {
  for (const Stmt *P = FD.parent(S); P; S = P, P = FD.parent(P)) {
    const auto *E = dyn_cast<Expr>(P);
    const auto *Child = dyn_cast<Expr>(S);
    if ((E && Child && E->IgnoreImplicit() == Child->IgnoreImplicit()) ||
        isa<ReturnStmt>(P))
      continue; // `helper();` and `return helper();`
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (S != If->getThen() && S != If->getElse())
        return false;
      continue; // an arm of an if in tail position is in tail position
    }
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      return false;
    bool After = false;
    for (const Stmt *C : Block->body()) {
      if (After) {
        if (!isEmptyOrReturn(C))
          return false;
      } else if (C == S) {
        After = true;
      }
    }
    if (!After)
      return false;
  }
  return S == FD.function()->getBody();
}

bool DivergentBarrierCheck::endsKernel(const FunctionDecl *F) {
  return F->hasAttr<CUDAGlobalAttr>() || onlyEndsKernels(F);
}

bool DivergentBarrierCheck::takesThreadsToExit(
    const FunctionDependence::GuardSite &G, const Stmt *Site,
    FunctionDependence &FD) {
  using Kind = FunctionDependence::GuardKind;
  switch (G.Kind) {
  case Kind::EarlyExit: // a helper's return, back to a kernel that ends
    return !isa<GotoStmt, IndirectGotoStmt>(G.Exit) &&
           endsKernel(FD.function());
  case Kind::Loop: // a break or return out of a loop after which all ends
    if (!G.Exit)
      return false; // the trip count: the threads that stay meet it more
    if (isa<ReturnStmt>(G.Exit))
      return endsKernel(FD.function());
    return isa<BreakStmt>(G.Exit) && endsFunction(G.Where, FD) &&
           endsKernel(FD.function());
  case Kind::Branch:
    break;
  }
  // The last `if` of the kernel: the threads that do not take the arm with
  // the barrier have nothing left to run.
  const auto *If = dyn_cast<IfStmt>(G.Where);
  if (!If || !endsFunction(If, FD))
    return false;
  // The other arm: its threads must not meet a barrier of their own, nor be
  // still running while the others wait.
  const Stmt *Other = If->getElse();
  for (const Stmt *S = Site; S && S != If; S = FD.parent(S))
    if (S == If->getElse())
      Other = If->getThen();
  if (Other && !isEmptyOrReturn(Other))
    return false;
  return endsKernel(FD.function());
}

// Whether E reads the block's position in the grid: blockIdx, a group's
// block index or rank, or a local set from one of them.
static bool readsBlockIndex(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenImpCasts();
  if (auto B = cudaBuiltinComponent(E))
    return B->first == "__cuda_builtin_blockIdx_t";
  // A member call, or a call of the static members cooperative groups
  // declares them as (grid.block_rank() calls grid_group::block_rank()).
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const auto *M =
            dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
      if (M->getDeclName().isIdentifier() &&
          llvm::is_contained({"group_index", "block_index", "block_rank"},
                             M->getName()))
        return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl() && V->getInit())
      return readsBlockIndex(V->getInit(), Depth + 1);
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (readsBlockIndex(CE, Depth + 1))
        return true;
  return false;
}

// A grid barrier (cooperative groups' grid sync) waits for every thread of
// every block: a condition on the block index, uniform within each block,
// still keeps whole blocks from it, and the grid hangs.
bool DivergentBarrierCheck::reportGridSplit(const Stmt *Site,
                                            FunctionDependence &FD) {
  const Stmt *Child = Site;
  for (const Stmt *P = FD.parent(Site); P; Child = P, P = FD.parent(P)) {
    const Expr *Cond = FunctionDependence::conditionOf(P);
    if (!Cond || Child == Cond)
      continue;
    if (const auto *For = dyn_cast<ForStmt>(P); For && Child == For->getInit())
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && Child != BO->getRHS())
      continue;
    if (!readsBlockIndex(Cond))
      continue;
    if (!Reported.insert(Site).second)
      return true;
    FindingBuilder B =
        diag(Site->getBeginLoc(),
             "'{0}' is reached by only some blocks of the grid: it is under "
             "the condition '{1}', which differs between blocks; a grid "
             "barrier waits for every thread of every block of the grid, and "
             "the blocks that wait never see the others arrive (the grid "
             "hangs)",
             Severity::Error);
    B << barrierName(Site) << context().sourceText(Cond);
    B.note(Cond->getBeginLoc(), "this condition splits the blocks of the grid");
    return true;
  }
  return false;
}

bool DivergentBarrierCheck::onlyEndsKernels(const FunctionDecl *F,
                                            unsigned Depth) {
  if (Depth > MaxDeviceCallDepth)
    return false;
  llvm::ArrayRef<CallSite> Calls = context().callGraph().callers(F);
  if (Calls.empty())
    return false; // not called here: a caller elsewhere may go on
  for (const CallSite &Site : Calls) {
    const FunctionDecl *Caller = Site.Caller;
    if (!endsFunction(Site.Call,
                      context().threadDependence().forFunction(Caller)))
      return false;
    if (!Caller->hasAttr<CUDAGlobalAttr>() &&
        !onlyEndsKernels(Caller, Depth + 1))
      return false;
  }
  return true;
}

DivergentBarrierCheck::DivergentBarrierCheck(llvm::StringRef Name,
                                             CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      ReportAllExits(Options.get("ReportAllExits", false)) {}

void DivergentBarrierCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".ReportAllExits"] = ReportAllExits ? "true" : "false";
}

void DivergentBarrierCheck::checkFunction(const FunctionDecl *Fn) {
  llvm::SmallVector<Frame, 4> Chain;
  visit(context().threadDependence().forFunction(Fn), Chain);
  checkEarlyExits(Fn);
}

void DivergentBarrierCheck::visit(FunctionDependence &FD,
                                  llvm::SmallVectorImpl<Frame> &Chain) {
  forEachStmt(FD.function()->getBody(), [&](const Stmt *S) {
    SyncSite Site = classifySync(S);
    if (Site.Kind == SyncKind::BlockBarrier ||
        Site.Kind == SyncKind::GridBarrier) {
      judge(S, FD, Chain);
      return WalkStep::SkipChildren;
    }
    if (Site.Kind != SyncKind::None)
      return WalkStep::SkipChildren; // a tile's or a warp's sync
    // A device-side launch (`child<<<g, b>>>()`) starts a grid of its own:
    // the child's barriers are its blocks' business, not this one's.
    if (isa<CUDAKernelCallExpr>(S))
      return WalkStep::Continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Barriers.barrierIn(Callee))
          judge(S, FD, Chain);
    return WalkStep::Continue;
  });
}

void DivergentBarrierCheck::judge(const Stmt *Site, FunctionDependence &FD,
                                  llvm::SmallVectorImpl<Frame> &Chain) {
  if (deadBySourceConstants(Site, FD))
    return;
  auto Guards = FD.guardSites(Site);
  // Threads that leave by a path with nothing left to run but the kernel's
  // end have exited, and a barrier does not wait for exited threads (PTX
  // ISA, "exit"): a helper's return back to a kernel that ends, a break out
  // of the loop that ends it, the kernel's last `if`.
  const FunctionDecl *Kernel =
      Chain.empty() ? FD.function() : Chain.front().Caller;
  // A branch or loop that the launch shape makes take every thread the same
  // way (the engine's sameForLaunch) splits nothing. Only the guards that
  // split the block are judged: the others never make the finding.
  using Kind = FunctionDependence::GuardKind;
  LaneEngine &Engine = context().engine();
  llvm::erase_if(Guards, [&](const FunctionDependence::GuardSite &G) {
    if (!splitsBlock(G.D))
      return true;
    return takesThreadsToExit(G, Site, FD) ||
           (G.Kind == Kind::Loop && G.Exit &&
            echoOfLoopExit(
                Site, G.Where, G.Exit,
                FD.function()->getASTContext().getSourceManager())) ||
           (G.Kind == Kind::Branch &&
            Engine.sameForLaunch(G.Where, FD.function(), Kernel)) ||
           (G.Kind == Kind::Loop && !G.Exit &&
            (Engine.sameForLaunch(G.Where, FD.function(), Kernel) ||
             (Chain.empty() && exitingLoop(G.Where, FD))));
  });
  // The outermost thread-dependent guard: the threads reach it together,
  // so its condition splits them itself; one inside it may vary only
  // because of it (a count kept across a loop whose trip count differs).
  const FunctionDependence::GuardSite *Worst = nullptr;
  for (const auto &G : Guards)
    if (G.D == Dependence::ThreadDependent && !G.Exit)
      Worst = &G;
  for (const auto &G : Guards)
    if (!Worst && G.D == Dependence::ThreadDependent)
      Worst = &G;
  if (!Worst)
    for (const auto &G : Guards)
      if (G.D == Dependence::WarpUniform) {
        Worst = &G;
        break;
      }
  const FunctionDecl *Callee = userCallee(Site);
  if (!Worst && classifySync(Site).Kind == SyncKind::GridBarrier)
    if (reportGridSplit(Site, FD))
      return;
  if (Worst) {
    // A helper that synchronises: the finding goes on the barrier inside it
    // (through any depth of user helpers), the call sites in notes.
    size_t Depth = Chain.size();
    const Stmt *Barrier = Site;
    const FunctionDecl *Caller = FD.function();
    while (const FunctionDecl *H = userCallee(Barrier)) {
      const Stmt *Inner = Barriers.barrierIn(H);
      if (!Inner || Chain.size() > Depth + MaxDeviceCallDepth)
        break;
      Chain.push_back({cast<CallExpr>(Barrier), Caller, false});
      Caller = H;
      Barrier = Inner;
    }
    report(Barrier, *Worst, FD, Chain);
    Chain.resize(Depth);
    return;
  }
  // Reached by the whole block here; a helper may still synchronise under
  // conditions on the arguments this call gives it.
  if (!Callee || Chain.size() >= MaxDeviceCallDepth)
    return;
  const auto *Call = cast<CallExpr>(Site);
  llvm::SmallVector<Dependence, 4> Args;
  bool AnySplit = false;
  unsigned Skip =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
    Dependence D = FD.dependence(Call->getArg(I));
    AnySplit |= splitsBlock(D);
    Args.push_back(D);
  }
  if (!AnySplit)
    return;
  Chain.push_back({Call, FD.function(), true});
  visit(context().threadDependence().forContext(Callee, Args), Chain);
  Chain.pop_back();
}

// One access to a __shared__ array: its element index (row-major for a
// multi-dimensional array), the conditions between the exit region and it.
struct SharedAccess {
  const Expr *E = nullptr; // the subscript expression
  const VarDecl *Array = nullptr;
  llvm::SmallVector<const Expr *, 2> Indices; // outermost first
  llvm::SmallVector<uint64_t, 2> Dims;        // extents, outermost first
  bool Write = false, Read = false;
  bool InLoop = false;
  llvm::SmallVector<std::pair<const Expr *, bool>, 2> Guards; // (cond, taken)
  SourceLocation Loc;
};

// ---- The early-exit rule --------------------------------------------------
//
// A kernel's thread-dependent `return` (or its last `if`) before a barrier is
// legal on NVIDIA hardware: exited threads release the barrier (PTX ISA,
// "exit"). What goes wrong is the data: the exited threads do not write what
// the survivors read after the barrier, and do not do their share after it.

namespace {

const VarDecl *sharedArrayOf(const ArraySubscriptExpr *AS,
                             llvm::SmallVectorImpl<const Expr *> &Indices) {
  const Expr *E = AS;
  while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    Indices.insert(Indices.begin(), Sub->getIdx());
    E = Sub->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasAttr<CUDASharedAttr>() || !V->getType()->isArrayType())
    return nullptr;
  return V;
}

bool constantDims(const VarDecl *V, llvm::SmallVectorImpl<uint64_t> &Dims) {
  QualType T = V->getType();
  while (const auto *CAT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    Dims.push_back(CAT->getSize().getZExtValue());
    T = CAT->getElementType();
  }
  return !Dims.empty() && !T->isArrayType();
}

} // namespace

void DivergentBarrierCheck::checkEarlyExits(const FunctionDecl *Fn) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Fn->getBody());
  if (!Body || !Fn->hasAttr<CUDAGlobalAttr>())
    return;
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  // The exits: `if (c) return;` at the top level of the body (survivors:
  // !c), and the last `if (c) { ... barrier ... }` (survivors: c).
  for (auto It = Body->body_begin(); It != Body->body_end(); ++It) {
    const auto *If = dyn_cast<IfStmt>(*It);
    if (!If || If->getInit() || If->getConditionVariable())
      continue;
    Dependence D = FD.dependence(If->getCond());
    if (D != Dependence::ThreadDependent && D != Dependence::WarpUniform)
      continue;
    if (isReturnIf(If)) {
      // The region the survivors run: the rest of the body.
      llvm::SmallVector<const Stmt *, 8> Rest(std::next(It), Body->body_end());
      judgeExit(Fn, FD, {If, If->getCond(), /*SurviveIfTrue=*/false}, Rest);
      continue;
    }
    if (std::next(It) == Body->body_end() &&
        (!If->getElse() || isEmptyOrReturn(If->getElse()))) {
      llvm::SmallVector<const Stmt *, 8> Rest = {If->getThen()};
      judgeExit(Fn, FD, {If, If->getCond(), /*SurviveIfTrue=*/true}, Rest);
    }
  }
  if (ReportAllExits)
    reportNestedExits(FD, Body);
  // The last statement, a loop under a tail guard: in the block's last
  // iteration the threads past the end leave it and exit.
  for (auto It = Body->body_rbegin(); It != Body->body_rend(); ++It) {
    if (isEmptyOrReturn(*It))
      continue;
    if (const Stmt *LoopBody = exitingLoop(*It, FD);
        LoopBody && !context().engine().sameForLaunch(*It, Fn, Fn))
      judgeExit(Fn, FD,
                {*It, FunctionDependence::conditionOf(*It),
                 /*SurviveIfTrue=*/true},
                {LoopBody});
    break;
  }
}

void DivergentBarrierCheck::reportNestedExits(FunctionDependence &FD,
                                              const CompoundStmt *Body) {
  for (auto It = Body->body_begin(); It != Body->body_end(); ++It) {
    const auto *If = dyn_cast<IfStmt>(*It);
    if (If && isReturnIf(If))
      continue; // `if (c) return;`: the early-exit rule's (judgeExit)
    std::vector<NestedExit> Exits = nestedExits(*It, FD);
    const Stmt *Bar = Exits.empty() ? nullptr
                                    : firstBlockBarrier(llvm::ArrayRef<Stmt *>(
                                          std::next(It), Body->body_end()));
    if (!Bar)
      continue;
    FindingBuilder B =
        diag(Bar->getBeginLoc(), ExitHazardMessage, Severity::Warning);
    B << barrierName(Bar) << context().sourceText(Exits.front().Cond);
    B.metric("exit_hazard", 1);
    B.note(Exits.front().Return->getBeginLoc(),
           "the threads that take this exit");
  }
}

const Stmt *DivergentBarrierCheck::exitingLoop(const Stmt *Loop,
                                               FunctionDependence &FD) {
  const Stmt *Body = isa<CXXForRangeStmt>(Loop) ? nullptr : loopBody(Loop);
  const Expr *Cond = FunctionDependence::conditionOf(Loop);
  // At the top of the kernel's body, as checkEarlyExits and the IR layer
  // take it: a loop in tail position inside an `if` is not judged by the
  // exit rule, so its guard is not dropped either.
  if (!Body || !Cond || !FD.function()->hasAttr<CUDAGlobalAttr>() ||
      FD.parent(Loop) != FD.function()->getBody() || !endsFunction(Loop, FD) ||
      FD.dependence(Cond) == Dependence::Uniform) // a bound padded to the block
    return nullptr;
  // (A break or return out of it ends the thread too; a continue is judged
  // as a guard of its own.)
  return FD.tailGuard(Cond, /*SurviveIfTrue=*/true) ? Body : nullptr;
}

void DivergentBarrierCheck::judgeExit(const FunctionDecl *Fn,
                                      FunctionDependence &FD,
                                      const ExitPoint &Exit,
                                      llvm::ArrayRef<const Stmt *> Region) {
  const bool SurviveIfTrue = Exit.SurviveIfTrue;
  const SourceManager &SM = Fn->getASTContext().getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  // The block barriers of the region, in source order; thread-dependent
  // ones are judged as barriers already.
  std::vector<const Stmt *> Bars;
  std::vector<SharedAccess> Accesses;
  std::function<void(const Stmt *,
                     llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &,
                     bool)>
      Walk = [&](const Stmt *S,
                 llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Guards,
                 bool InLoop) {
        if (!S || isa<LambdaExpr>(S))
          return;
        SyncSite Sync = classifySync(S);
        if (Sync.Kind == SyncKind::BlockBarrier) {
          if (!InLoop && llvm::all_of(Guards, [&](auto &G) {
                return FD.dependence(G.first) == Dependence::Uniform;
              }))
            Bars.push_back(S);
          return;
        }
        if (const auto *Sub = dyn_cast<IfStmt>(S)) {
          Walk(Sub->getCond(), Guards, InLoop);
          Guards.push_back({Sub->getCond(), true});
          Walk(Sub->getThen(), Guards, InLoop);
          Guards.back().second = false;
          Walk(Sub->getElse(), Guards, InLoop);
          Guards.pop_back();
          return;
        }
        bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
        auto Record = [&](const Expr *Target, bool W, bool R) {
          const auto *AS =
              dyn_cast<ArraySubscriptExpr>(Target->IgnoreParenImpCasts());
          if (!AS)
            return false;
          SharedAccess A;
          A.Array = sharedArrayOf(AS, A.Indices);
          if (!A.Array || !constantDims(A.Array, A.Dims) ||
              A.Dims.size() != A.Indices.size())
            return false;
          A.E = AS;
          A.Write = W;
          A.Read = R;
          A.InLoop = InLoop || Loop;
          A.Guards.assign(Guards.begin(), Guards.end());
          A.Loc = AS->getBeginLoc();
          Accesses.push_back(A);
          for (const Expr *I : A.Indices)
            Walk(I, Guards, InLoop || Loop);
          return true;
        };
        if (const auto *BO = dyn_cast<BinaryOperator>(S);
            BO && BO->isAssignmentOp()) {
          if (Record(BO->getLHS(), true, BO->isCompoundAssignmentOp())) {
            Walk(BO->getRHS(), Guards, InLoop || Loop);
            return;
          }
        } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
          if (UO->isIncrementDecrementOp() &&
              Record(UO->getSubExpr(), true, true))
            return;
          if (UO->getOpcode() == UO_AddrOf &&
              Record(UO->getSubExpr(), true, true)) // an atomic's target
            return;
        } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
          if (Record(AS, false, true))
            return;
        }
        for (const Stmt *C : S->children())
          Walk(C, Guards, InLoop || Loop);
      };
  // Writes before the exit, by every thread.
  std::vector<SharedAccess> Early;
  {
    llvm::SmallVector<std::pair<const Expr *, bool>, 4> G;
    std::swap(Accesses, Early);
    for (const Stmt *S : cast<CompoundStmt>(Fn->getBody())->body()) {
      if (S == Exit.At)
        break;
      Walk(S, G, false);
    }
    std::swap(Accesses, Early);
    Bars.clear();
    for (const Stmt *S : Region)
      Walk(S, G, false);
  }
  if (Bars.empty())
    return;
  if (ReportAllExits) {
    FindingBuilder B = diag(
        Bars.front()->getBeginLoc(),
        isa<IfStmt>(Exit.At)
            ? ExitHazardMessage
            : "'{0}' is in a loop that ends the kernel: the threads for which "
              "'{1}' fails leave it and exit, and never arrive; legal on "
              "NVIDIA GPUs (a barrier waits only for non-exited threads), but "
              "HIP on AMD GPUs may wait for them and hang",
        Severity::Warning);
    B << barrierName(Bars.front()) << context().sourceText(Exit.Cond);
    B.metric("exit_hazard", 1);
    B.note(Exit.At->getBeginLoc(), "the threads that take this exit");
  }
  // The threads of the block: the launch's, or one of the arrays' extent.
  BlockShape Shape = context().engine().shape(Fn);
  bool Assumed = !Shape.pinned();
  if (Assumed) {
    Shape = BlockShape();
    Shape.X = 256;
    for (const SharedAccess &A : Accesses)
      if (A.Dims.size() == 1 && A.Dims[0] >= 32 && A.Dims[0] <= 1024 &&
          A.Dims[0] % 32 == 0) {
        Shape.X = unsigned(A.Dims[0]);
        break;
      }
  }
  unsigned NT = Shape.X * Shape.Y * Shape.Z;
  if (NT == 0 || NT > 1024)
    return;
  LaneEvaluator LE = context().engine().lanes(Fn, Shape);
  std::vector<ThreadId> Threads(NT);
  for (unsigned T = 0; T < NT; ++T)
    Threads[T] =
        ThreadId{T % Shape.X, (T / Shape.X) % Shape.Y, T / (Shape.X * Shape.Y)};
  // Who survives: evaluated per thread, or a tail guard (a prefix of x,
  // and of y, of unknown length).
  std::vector<std::optional<bool>> Survives(NT);
  // (A loop's condition evaluated per thread says who runs its first
  // iteration; who leaves in the last one is a tail guard's question.)
  bool Concrete = isa<IfStmt>(Exit.At);
  for (unsigned T = 0; Concrete && T < NT; ++T) {
    std::optional<int64_t> C = LE.eval(Exit.Cond, Threads[T]);
    if (!C) {
      Concrete = false;
      break;
    }
    Survives[T] = (*C != 0) == SurviveIfTrue;
  }
  // A tail guard: each disjunct of the exit condition is `a >= b` (or
  // `a > b`) with `a` growing with one thread index and `b` uniform.
  FunctionDependence::TailCut Tail;
  if (!Concrete) {
    auto Cut = FD.tailGuard(Exit.Cond, SurviveIfTrue);
    if (!Cut)
      return; // a data-dependent exit: not judged
    Tail = *Cut;
  }
  // The survivor sets to try.
  std::vector<std::vector<bool>> Models;
  if (Concrete) {
    std::vector<bool> S(NT);
    for (unsigned T = 0; T < NT; ++T)
      S[T] = *Survives[T];
    Models.push_back(S);
  } else {
    auto Lengths = [](unsigned N, bool Cut) {
      std::vector<unsigned> Out;
      if (!Cut)
        return std::vector<unsigned>{N};
      for (unsigned K : {1u, 2u, 31u, 32u, 33u, N / 2, N - 2, N - 1})
        if (K >= 1 && K < N && !llvm::is_contained(Out, K))
          Out.push_back(K);
      return Out;
    };
    for (unsigned KX : Lengths(Shape.X, Tail.X))
      for (unsigned KY : Lengths(Shape.Y, Tail.Y))
        for (unsigned KZ : Lengths(Shape.Z, Tail.Z)) {
          std::vector<bool> S(NT);
          for (unsigned T = 0; T < NT; ++T)
            S[T] = Threads[T].X < KX && Threads[T].Y < KY && Threads[T].Z < KZ;
          Models.push_back(S);
        }
  }
  // Each access's element per thread (nothing: unknown), and whether the
  // thread runs it (nothing: unknown).
  auto Element = [&](const SharedAccess &A,
                     const ThreadId &T) -> std::optional<int64_t> {
    if (A.InLoop)
      return std::nullopt;
    int64_t Flat = 0;
    for (size_t I = 0; I < A.Indices.size(); ++I) {
      std::optional<int64_t> V = LE.eval(A.Indices[I], T);
      if (!V)
        return std::nullopt;
      Flat = Flat * int64_t(A.Dims[I]) + *V;
    }
    return Flat;
  };
  auto Runs = [&](const SharedAccess &A,
                  const ThreadId &T) -> std::optional<bool> {
    for (auto &[Cond, Taken] : A.Guards) {
      std::optional<int64_t> V = LE.eval(Cond, T);
      if (!V)
        return std::nullopt;
      if ((*V != 0) != Taken)
        return false;
    }
    return true;
  };
  struct Table {
    std::vector<std::optional<int64_t>> Elem;
    std::vector<std::optional<bool>> Run;
  };
  auto Tabulate = [&](const SharedAccess &A) {
    Table Tb;
    Tb.Elem.resize(NT);
    Tb.Run.resize(NT);
    for (unsigned T = 0; T < NT; ++T) {
      Tb.Run[T] = Runs(A, Threads[T]);
      if (!Tb.Run[T] || *Tb.Run[T])
        Tb.Elem[T] = Element(A, Threads[T]);
    }
    return Tb;
  };
  std::vector<Table> Tabs;
  for (const SharedAccess &A : Accesses)
    Tabs.push_back(Tabulate(A));
  const Stmt *FirstBar = Bars.front();
  // The barrier that separates a read from the writes it may see: the last
  // one before it.
  auto BarrierBefore = [&](SourceLocation L) -> const Stmt * {
    const Stmt *Found = nullptr;
    for (const Stmt *B : Bars)
      if (Before(B->getBeginLoc(), L))
        Found = B;
    return Found;
  };
  bool Undecided = false;
  for (size_t R = 0; R < Accesses.size(); ++R) {
    const SharedAccess &Rd = Accesses[R];
    const Stmt *Bar = Rd.Read ? BarrierBefore(Rd.Loc) : nullptr;
    if (!Bar)
      continue;
    // The writes of the same array before that barrier in the region.
    std::vector<size_t> Writes;
    bool UnknownWrite = false;
    for (size_t W = 0; W < Accesses.size(); ++W) {
      const SharedAccess &Wr = Accesses[W];
      if (!Wr.Write || Wr.Array != Rd.Array ||
          !Before(Wr.Loc, Bar->getBeginLoc()))
        continue;
      Writes.push_back(W);
      for (unsigned T = 0; T < NT; ++T)
        if ((!Tabs[W].Run[T] || *Tabs[W].Run[T]) && !Tabs[W].Elem[T])
          UnknownWrite = true;
    }
    if (Writes.empty())
      continue;
    bool EarlyUnknown = llvm::any_of(Early, [&](const SharedAccess &E) {
      return E.Write && E.Array == Rd.Array &&
             llvm::any_of(Threads,
                          [&](const ThreadId &T) { return !Element(E, T); });
    });
    bool UnknownRead = false;
    for (unsigned T = 0; T < NT; ++T)
      if ((!Tabs[R].Run[T] || *Tabs[R].Run[T]) && !Tabs[R].Elem[T])
        UnknownRead = true;
    for (const std::vector<bool> &S : Models) {
      // Ownership: writes the indices of which are unknown (data: a
      // histogram's bins) are merged after the barrier by each slot's
      // owner, and the owners of some slots have exited.
      if (UnknownWrite && !UnknownRead) {
        llvm::DenseMap<int64_t, unsigned> ByExited;
        llvm::DenseSet<int64_t> BySurvivor;
        for (unsigned T = 0; T < NT; ++T)
          if (Tabs[R].Run[T] && *Tabs[R].Run[T] && Tabs[R].Elem[T])
            (S[T] ? (void)BySurvivor.insert(*Tabs[R].Elem[T])
                  : (void)ByExited.try_emplace(*Tabs[R].Elem[T], T));
        // The lowest such slot, for a message that does not depend on the
        // order of a hash table.
        std::optional<std::pair<int64_t, unsigned>> Lost;
        for (auto &[Slot, Owner] : ByExited)
          if (!BySurvivor.count(Slot) && (!Lost || Slot < Lost->first))
            Lost = {Slot, Owner};
        if (Lost) {
          reportExitHazard(FD, Exit, Bar, Rd, Concrete, Assumed, NT,
                           Lost->second, Lost->first, /*Owned=*/true, S);
          return;
        }
        continue;
      }
      if (UnknownWrite || UnknownRead || EarlyUnknown) {
        Undecided = true;
        continue;
      }
      llvm::DenseSet<int64_t> Survived;
      llvm::DenseMap<int64_t, unsigned> Exited;
      for (const SharedAccess &E : Early) // written by every thread
        if (E.Write && E.Array == Rd.Array)
          for (unsigned T = 0; T < NT; ++T)
            if (std::optional<int64_t> El = Element(E, Threads[T]))
              Survived.insert(*El);
      for (size_t W : Writes)
        for (unsigned T = 0; T < NT; ++T) {
          if (!*Tabs[W].Run[T])
            continue;
          int64_t E = *Tabs[W].Elem[T];
          if (S[T])
            Survived.insert(E);
          else
            Exited.try_emplace(E, T);
        }
      for (unsigned T = 0; T < NT; ++T) {
        if (!S[T] || !*Tabs[R].Run[T])
          continue;
        int64_t E = *Tabs[R].Elem[T];
        auto Ex = Exited.find(E);
        if (!Survived.count(E) && Ex != Exited.end()) {
          reportExitHazard(FD, Exit, Bar, Rd, Concrete, Assumed, NT, T, E,
                           /*Owned=*/false, S, Ex->second);
          return;
        }
      }
    }
  }
  if (Undecided && !Concrete && !ReportAllExits) {
    FindingBuilder B =
        diag(FirstBar->getBeginLoc(),
             "'{0}' follows a tail guard ('{1}'): the threads past the end "
             "exit, and warplint cannot tell whether the survivors read after "
             "it only shared memory that survivors wrote; check that no "
             "thread reads a slot an exited thread would have written",
             Severity::Warning);
    B << barrierName(FirstBar) << context().sourceText(Exit.Cond);
    B.metric("exit_hazard", 1);
    B.note(Exit.At->getBeginLoc(),
           isa<IfStmt>(Exit.At)
               ? "threads that take this exit write nothing after it"
               : "threads that leave this loop exit, as nothing follows it "
                 "in the kernel");
  }
}

void DivergentBarrierCheck::reportExitHazard(
    FunctionDependence &FD, const ExitPoint &Exit, const Stmt *Bar,
    const SharedAccess &Rd, bool Concrete, bool Assumed, unsigned NT,
    unsigned Thread, int64_t Slot, bool Owned, const std::vector<bool> &S,
    unsigned Writer) {
  (void)FD;
  unsigned Survivors = unsigned(llvm::count(S, true));
  std::string When = Concrete ? ""
                              : " when only " + std::to_string(Survivors) +
                                    " of the " + std::to_string(NT) +
                                    " threads pass the tail guard";
  std::string Block = Assumed ? " (assuming blocks of " + std::to_string(NT) +
                                    " threads: the launch is not known)"
                              : "";
  std::string Name = Rd.Array->getName().str();
  FindingBuilder B =
      Owned ? diag(Bar->getBeginLoc(),
                   "'{0}' follows a thread-dependent exit, and after it each "
                   "thread consumes only its own slot of '{1}': slot {2} "
                   "belongs to thread {3}, which has exited{4}, so what the "
                   "survivors wrote there is never consumed{5}",
                   Severity::Error)
            : diag(Bar->getBeginLoc(),
                   "'{0}' follows a thread-dependent exit, and after it thread "
                   "{3} reads {1}[{2}], which only thread {4} writes, and that "
                   "thread has exited{5}: the value read is stale{6}",
                   Severity::Error);
  if (Owned)
    B << barrierName(Bar) << Name << Slot << Thread << When << Block;
  else
    B << barrierName(Bar) << Name << Slot << Thread << Writer << When << Block;
  // A data hazard after an exit, not a barrier that part of the block
  // misses (bench/gpu/compare_predictions.py tells the two apart).
  B.metric("exit_hazard", 1);
  B.note(Exit.At->getBeginLoc(), "{0}")
      << (isa<IfStmt>(Exit.At) ? "threads exit here"
                               : "threads that leave this loop exit, as "
                                 "nothing follows it in the kernel") +
             std::string("; an exited thread releases the barrier (PTX ISA, "
                         "'exit') but writes and reads nothing after it");
  B.note(Rd.Loc, "{0}")
      << (Owned ? "each slot is consumed here by its owner"
                : "the read of a slot only exited threads write");
}

WARPLINT_CHECK_FACTORY(DivergentBarrierCheck)

} // namespace warplint::divergence
