#include "checks/divergence/DivergentBarrierCheck.h"
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
  llvm::erase_if(Guards, [&](const FunctionDependence::GuardSite &G) {
    return takesThreadsToExit(G, Site, FD);
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
