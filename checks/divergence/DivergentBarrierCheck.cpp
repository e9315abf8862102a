#include "checks/divergence/DivergentBarrierCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/BodyWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warplint::divergence {

namespace {

// A block-level divergence is one that some threads of the block do not
// share: thread-dependent, or different between warps (a warp id, a vote).
bool splitsBlock(Dependence D) {
  return D == Dependence::ThreadDependent || D == Dependence::WarpUniform;
}

std::string barrierName(const Stmt *Site) {
  SyncSite S = classifySync(Site);
  if (S.Kind != SyncKind::None)
    return isa<AsmStmt>(Site) ? "asm " + S.Name : S.Name + "()";
  if (const auto *Call = dyn_cast<CallExpr>(Site))
    if (const FunctionDecl *F = Call->getDirectCallee())
      return F->getQualifiedNameAsString() + "()";
  return "barrier";
}

} // namespace

// A statement that runs nothing: `;`, `{}`, `return;`.
static bool isEmptyOrReturn(const Stmt *S) {
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(Block->body(), isEmptyOrReturn);
  const auto *R = dyn_cast<ReturnStmt>(S);
  return isa<NullStmt>(S) || (R && !R->getRetValue());
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

// `for (i = threadIdx.x; i < N; i += blockDim.x)`: thread t runs
// ceil((N - t) / blockDim.x) iterations, the same for every thread when N is
// a multiple of blockDim.x — one iteration each when they are equal. True
// when every launch of the kernel in the TU has such a block (the launch
// shapes agree on a literal blockDim.x); the counter must not be written in
// the body.
bool DivergentBarrierCheck::sameTripsForLaunch(const Stmt *Loop,
                                               FunctionDependence &FD,
                                               const FunctionDecl *Kernel) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getInit() || !For->getCond() || !For->getInc() || !Kernel ||
      !Kernel->hasAttr<CUDAGlobalAttr>())
    return false;
  BlockShape Shape = context().affine().blockShape(Kernel);
  if (!Shape.pinned())
    return false;
  auto IsComponent = [](const Expr *E, llvm::StringRef Type) {
    auto B = cudaBuiltinComponent(E);
    return B && B->first == Type && B->second == "x";
  };
  // The counter and its start.
  const VarDecl *Counter = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = Counter ? Counter->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      Counter = dyn_cast<VarDecl>(DRE->getDecl());
    Start = BO->getRHS();
  }
  if (!Counter || !Start ||
      !IsComponent(Start->IgnoreParenImpCasts(), "__cuda_builtin_threadIdx_t"))
    return false;
  auto IsCounter = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Counter;
  };
  // i < N, N a constant multiple of blockDim.x.
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParens());
  if (!Cond || Cond->getOpcode() != BO_LT || !IsCounter(Cond->getLHS()))
    return false;
  Expr::EvalResult N;
  const Expr *Bound = Cond->getRHS();
  if (Bound->isValueDependent() ||
      !Bound->EvaluateAsInt(N, Kernel->getASTContext()) ||
      N.Val.getInt().isNegative() ||
      N.Val.getInt().getZExtValue() % Shape.X != 0)
    return false;
  // i += blockDim.x
  const auto *Inc = dyn_cast<CompoundAssignOperator>(For->getInc());
  if (!Inc || Inc->getOpcode() != BO_AddAssign || !IsCounter(Inc->getLHS()) ||
      !IsComponent(Inc->getRHS()->IgnoreParenImpCasts(),
                   "__cuda_builtin_blockDim_t"))
    return false;
  // Nothing else in the loop writes the counter or leaves it early.
  bool Written = false;
  forEachStmt(For->getBody(), [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && IsCounter(BO->getLHS()))
      Written = true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        IsCounter(UO->getSubExpr()))
      Written = true;
    return WalkStep::Continue;
  });
  (void)FD;
  return !Written;
}

// Whether E reads the block's position in the grid: blockIdx, a group's
// block index or rank, or a local set from one of them.
static bool readsBlockIndex(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenImpCasts();
  if (auto B = cudaBuiltinComponent(E))
    return B->first == "__cuda_builtin_blockIdx_t";
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *M = MC->getMethodDecl())
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

void DivergentBarrierCheck::checkFunction(const FunctionDecl *Fn) {
  llvm::SmallVector<Frame, 4> Chain;
  visit(context().threadDependence().forFunction(Fn), Chain);
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
  auto Guards = FD.guardSites(Site);
  // Threads that leave by a path with nothing left to run but the kernel's
  // end have exited, and a barrier does not wait for exited threads (PTX
  // ISA, "exit"): a helper's return back to a kernel that ends, a break out
  // of the loop that ends it, the kernel's last `if`.
  const FunctionDecl *Kernel =
      Chain.empty() ? FD.function() : Chain.front().Caller;
  llvm::erase_if(Guards, [&](const FunctionDependence::GuardSite &G) {
    return takesThreadsToExit(G, Site, FD) ||
           (G.Kind == FunctionDependence::GuardKind::Loop && !G.Exit &&
            sameTripsForLaunch(G.Where, FD, Kernel));
  });
  const FunctionDependence::GuardSite *Worst = nullptr;
  for (const auto &G : Guards)
    if (G.D == Dependence::ThreadDependent) {
      Worst = &G;
      break;
    }
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

void DivergentBarrierCheck::report(const Stmt *Site,
                                   const FunctionDependence::GuardSite &G,
                                   FunctionDependence &FD,
                                   llvm::ArrayRef<Frame> Chain) {
  if (!Reported.insert(Site).second)
    return;
  using Kind = FunctionDependence::GuardKind;
  const Expr *Cond = FunctionDependence::conditionOf(G.Where);
  std::string CondText =
      Cond ? "'" + context().sourceText(Cond) + "'" : std::string("it");
  bool Warps = G.D == Dependence::WarpUniform;
  std::string Why;
  SourceLocation NoteLoc = Cond ? Cond->getBeginLoc() : G.Where->getBeginLoc();
  std::string NoteText;
  if (G.Kind == Kind::Branch) {
    Why = "it is under the condition " + CondText +
          (Warps ? ", which differs between the warps of the block"
                 : ", which depends on the thread");
    NoteText = Warps ? "this condition lets only some warps through"
                     : "this condition splits the threads of the block";
  } else if (G.Kind == Kind::Loop && !G.Exit) {
    Why = "it is inside a loop whose trip count differs between threads (the "
          "condition " +
          CondText +
          (Warps ? " differs between warps"
                 : " depends on the "
                   "thread") +
          "), so threads arrive at it a different number of times";
    NoteText = "the loop condition that varies between threads";
  } else if (G.Kind == Kind::Loop) {
    std::string ExitName = isa<BreakStmt>(G.Exit)      ? "break"
                           : isa<ContinueStmt>(G.Exit) ? "continue"
                                                       : "return";
    Why = "some threads leave or skip iterations of the loop around it (a '" +
          ExitName + "' under a thread-dependent condition)";
    NoteLoc = G.Exit->getBeginLoc();
    NoteText = "threads that take this '" + ExitName + "' miss the barrier";
  } else {
    Why = "threads that return early from " +
          FD.function()->getQualifiedNameAsString() +
          "() do not reach it: they go back to the caller and run on, they "
          "have not exited";
    NoteLoc = G.Exit->getBeginLoc();
    NoteText = "threads that take this return skip the barrier";
  }
  std::string Effect =
      arch().independent_thread_scheduling
          ? "undefined behaviour on " + arch().Name +
                " (independent thread scheduling)"
          : "on " + arch().Name +
                " the block deadlocks or reads shared memory too early";
  FindingBuilder B =
      diag(Site->getBeginLoc(),
           "'{0}' is reached by only part of the thread block: {1}; every "
           "non-exited thread of the block must reach the same barrier (Volta "
           "tuning guide 1.4.1.2): {2}",
           Severity::Error);
  B << barrierName(Site) << Why << Effect;
  B.note(NoteLoc, "{0}") << NoteText;
  // Innermost call first, as a backtrace reads.
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const FunctionDecl *Callee = It->Call->getDirectCallee();
    std::string Name =
        Callee ? "'" + Callee->getQualifiedNameAsString() + "'" : "the helper";
    B.note(It->Call->getBeginLoc(),
           It->ViaArguments ? Name + " is called here with a thread-dependent "
                                     "argument"
                            : Name + " is called here");
  }
}

WARPLINT_CHECK_FACTORY(DivergentBarrierCheck)

} // namespace warplint::divergence
