#include "checks/divergence/DivergentBarrierCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;

namespace warplint::divergence {

namespace {

constexpr unsigned MaxCallDepth = 6;

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

void DivergentBarrierCheck::indexCalls() {
  CallsIndexed = true;
  using namespace clang::ast_matchers;
  auto Matches =
      match(callExpr(unless(isExpansionInSystemHeader()),
                     forFunction(functionDecl().bind("caller")))
                .bind("call"),
            context().astContext());
  for (const auto &M : Matches) {
    const auto *Call = M.getNodeAs<CallExpr>("call");
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Callers[Callee->getCanonicalDecl()].push_back(
          {Call, M.getNodeAs<FunctionDecl>("caller")});
  }
}

// The call is the last statement of its caller's body (or followed only by
// a plain return).
static bool inTailPosition(const CallExpr *Call, const FunctionDecl *Caller) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Caller->getBody());
  if (!Body)
    return false;
  const Stmt *Last = nullptr;
  for (const Stmt *S : Body->body()) {
    const auto *R = dyn_cast<ReturnStmt>(S);
    if (R && !R->getRetValue() && Last)
      break;
    Last = S;
  }
  if (const auto *R = dyn_cast_or_null<ReturnStmt>(Last))
    Last = R->getRetValue();
  if (const auto *E = dyn_cast_or_null<Expr>(Last))
    return E->IgnoreImplicit() == Call;
  return false;
}

bool DivergentBarrierCheck::onlyEndsKernels(const FunctionDecl *F,
                                            unsigned Depth) {
  if (Depth > MaxCallDepth)
    return false;
  if (!CallsIndexed)
    indexCalls();
  auto It = Callers.find(F->getCanonicalDecl());
  if (It == Callers.end() || It->second.empty())
    return false; // not called here: a caller elsewhere may go on
  for (const auto &[Call, Caller] : It->second) {
    if (!inTailPosition(Call, Caller))
      return false;
    if (!Caller->hasAttr<CUDAGlobalAttr>() && !onlyEndsKernels(Caller, Depth + 1))
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
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    SyncSite Site = classifySync(S);
    if (Site.Kind == SyncKind::BlockBarrier ||
        Site.Kind == SyncKind::GridBarrier) {
      judge(S, FD, Chain);
      return;
    }
    if (Site.Kind != SyncKind::None)
      return; // a tile's or a warp's sync: not a block barrier
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Barriers.barrierIn(Callee))
          judge(S, FD, Chain);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD.function()->getBody());
}

void DivergentBarrierCheck::judge(const Stmt *Site, FunctionDependence &FD,
                                  llvm::SmallVectorImpl<Frame> &Chain) {
  auto Guards = FD.guardSites(Site);
  // A helper's early return whose threads only go back to end their kernel
  // is an exit in all but name.
  if (llvm::any_of(Guards, [](const FunctionDependence::GuardSite &G) {
        return G.Kind == FunctionDependence::GuardKind::EarlyExit;
      }) &&
      onlyEndsKernels(FD.function()))
    llvm::erase_if(Guards, [](const FunctionDependence::GuardSite &G) {
      return G.Kind == FunctionDependence::GuardKind::EarlyExit;
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
      if (!Inner || Chain.size() > Depth + MaxCallDepth)
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
  if (!Callee || Chain.size() >= MaxCallDepth)
    return;
  const auto *Call = cast<CallExpr>(Site);
  llvm::SmallVector<Dependence, 4> Args;
  bool AnySplit = false;
  unsigned Skip = isa<CXXOperatorCallExpr>(Call) &&
                          isa<CXXMethodDecl>(Callee) ? 1 : 0;
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
          CondText + (Warps ? " differs between warps" : " depends on the "
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
  diag(Site->getBeginLoc(),
       "'%0' is reached by only part of the thread block: %1; every "
       "non-exited thread of the block must reach the same barrier (Volta "
       "tuning guide 1.4.1.2): %2",
       Severity::Error)
      << barrierName(Site) << Why << Effect;
  diag(NoteLoc, NoteText, Severity::Note);
  // Innermost call first, as a backtrace reads.
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const FunctionDecl *Callee = It->Call->getDirectCallee();
    std::string Name =
        Callee ? "'" + Callee->getQualifiedNameAsString() + "'" : "the helper";
    diag(It->Call->getBeginLoc(),
         It->ViaArguments ? Name + " is called here with a thread-dependent "
                               "argument"
                      : Name + " is called here",
         Severity::Note);
  }
}

WARPLINT_CHECK_FACTORY(DivergentBarrierCheck)

} // namespace warplint::divergence
