// divergence-barrier: the message of a barrier that only part of the block
// reaches, with its witness (BarrierWitness.h).
#include "IR/Report.h"
#include "checks/divergence/BarrierSites.h"
#include "checks/divergence/BarrierWitness.h"
#include "checks/divergence/DivergentBarrierCheck.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint::divergence {

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
  // The witness: two threads that part here, named in the message and the
  // metrics so that a user can check the finding in a minute.
  std::optional<BarrierWitness> W =
      findBarrierWitness(Site, G, FD, context().engine(), [&](const Stmt *S) {
        return context().sourceText(S);
      });
  // Without a witness the finding is a warning: the IR layer, where it
  // compiled the function, may give one (it then becomes an error).
  FindingBuilder B =
      diag(Site->getBeginLoc(),
           W ? "'{0}' is reached by only part of the thread block: {1}; every "
               "non-exited thread of the block must reach the same barrier "
               "(Volta tuning guide 1.4.1.2): {2}; witness: {3}"
             : "'{0}' is reached by only part of the thread block: {1}; every "
               "non-exited thread of the block must reach the same barrier "
               "(Volta tuning guide 1.4.1.2): {2}; {3}",
           W ? Severity::Error : Severity::Warning);
  B << barrierName(Site) << Why << Effect;
  if (!W)
    B << ir::NoWitnessWords.str();
  if (W) {
    B << W->Text;
    B.metric("witness_thread_reaches", double(W->Reaches));
    B.metric("witness_thread_misses", double(W->Misses));
    if (W->BlockThreads)
      B.metric("witness_block_threads", W->BlockThreads);
  }
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

} // namespace warplint::divergence
