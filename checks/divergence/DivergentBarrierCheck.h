// divergence-barrier: a block barrier (__syncthreads and its forms, bar.sync,
// cooperative groups' block sync) that only part of the block reaches (Volta
// tuning guide 1.4.1.2).
#pragma once
#include "Analysis/SyncPrimitives.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseSet.h"

namespace warplint::divergence {

struct SharedAccess;

class DivergentBarrierCheck : public FunctionCheck {
public:
  DivergentBarrierCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

private:
  // A call site on the way from a kernel to the barrier.
  struct Frame {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
    bool ViaArguments; // judged in the context of this call's arguments
  };
  void checkFunction(const clang::FunctionDecl *Fn) override;
  // Judges every barrier reachable from the body of FD's function, in the
  // context the call chain gives it.
  void visit(FunctionDependence &FD, llvm::SmallVectorImpl<Frame> &Chain);
  void judge(const clang::Stmt *Site, FunctionDependence &FD,
             llvm::SmallVectorImpl<Frame> &Chain);
  void report(const clang::Stmt *Site, const FunctionDependence::GuardSite &G,
              FunctionDependence &FD, llvm::ArrayRef<Frame> Chain);

  // Whether every thread that leaves F early has nothing left to do but
  // exit: each call of F (transitively) is the last statement of a kernel.
  bool onlyEndsKernels(const clang::FunctionDecl *F, unsigned Depth = 0);
  bool endsKernel(const clang::FunctionDecl *F);
  // Whether the threads that G keeps from Site have nothing left to run but
  // their exit.
  bool takesThreadsToExit(const FunctionDependence::GuardSite &G,
                          const clang::Stmt *Site, FunctionDependence &FD);

  // A grid barrier under a condition on the block index: reported, true.
  bool reportGridSplit(const clang::Stmt *Site, FunctionDependence &FD);

  // The early-exit rule: a kernel's thread-dependent exit before a barrier,
  // and what the survivors read after it.
  // An exit: the statement the threads leave at (an `if`, or the loop that
  // ends the kernel) and the condition that decides who stays.
  struct ExitPoint {
    const clang::Stmt *At;
    const clang::Expr *Cond;
    bool SurviveIfTrue;
  };
  void checkEarlyExits(const clang::FunctionDecl *Fn);
  // ReportAllExits: a barrier after a top-level statement that holds a
  // thread-dependent return deeper than `if (c) return;`.
  void reportNestedExits(FunctionDependence &FD,
                         const clang::CompoundStmt *Body);
  // The kernel's last statement, a loop whose trip count differs between
  // threads only through a tail guard (`while (idx < n)` with idx growing
  // with the thread index): the threads that leave it exit.
  const clang::Stmt *exitingLoop(const clang::Stmt *Loop,
                                 FunctionDependence &FD);
  void judgeExit(const clang::FunctionDecl *Fn, FunctionDependence &FD,
                 const ExitPoint &Exit,
                 llvm::ArrayRef<const clang::Stmt *> Region);
  void reportExitHazard(FunctionDependence &FD, const ExitPoint &Exit,
                        const clang::Stmt *Bar, const SharedAccess &Rd,
                        bool Concrete, bool Assumed, unsigned NT,
                        unsigned Thread, int64_t Slot, bool Owned,
                        const std::vector<bool> &Survivors,
                        unsigned Writer = 0);

  BarrierSummary Barriers;
  // Report every thread-dependent exit before a barrier (HIP portability).
  bool ReportAllExits;
  llvm::DenseSet<const clang::Stmt *> Reported;
};

} // namespace warplint::divergence
