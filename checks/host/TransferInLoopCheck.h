// host-transfer-in-loop: a blocking cudaMemcpy, a cudaDeviceSynchronize or a
// cudaMalloc/cudaFree inside a host loop that also launches kernels, so that
// transfers, host work and kernels run back to back instead of overlapping
// (Volta tuning guide 1.2: minimize data transfers between the host and the
// device; Pascal deep dive, "Streams": asynchronous data transfers).
#pragma once
#include "Core/Check.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <string>

namespace warplint::host {

// Each host function is walked once; a call to another function of the TU
// is looked through (a bounded number of calls deep) for the launches and
// blocking calls it makes, so a loop that launches through a helper, or
// copies through one, is judged as if the helper's body were written in it.
class TransferInLoopCheck : public FunctionCheck {
public:
  TransferInLoopCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

  // A launch or a blocking runtime call, and the call in the walked
  // function that reaches it (itself, or a call of the helper that makes it).
  struct Reach {
    const clang::CallExpr *Site = nullptr;        // in the function walked
    const clang::CallExpr *Inner = nullptr;       // the launch or runtime call
    const clang::FunctionDecl *InnerFn = nullptr; // the function holding it
  };
  // What a function does, seen from a loop that calls it: the first launch
  // it reaches, and the blocking calls it makes that are not already
  // reported inside it nor guarded to run once.
  // Waits: it reads back a small value that decides its result (a step
  // that returns whether the algorithm has converged), outside its loops.
  struct Summary {
    std::optional<Reach> Launch;
    llvm::SmallVector<Reach, 2> Blocking;
    bool Waits = false;
  };

private:
  bool wantsHostFunctions() const override { return true; }
  void checkFunction(const clang::FunctionDecl *F) override;
  void finishTranslationUnit() override;

  Summary summary(const clang::FunctionDecl *F, unsigned Depth);
  // Reports the blocking calls in F's loops that launch when Report is set;
  // returns what F does for the loops of its callers.
  Summary analyse(const clang::FunctionDecl *F, unsigned Depth, bool Report);
  // Whether Loop waits for the GPU every iteration on a value it decides on:
  // a small steering read in it, or a call of a helper that makes one and
  // whose result the loop tests. F holds the loop; Depth is F's, for the
  // helpers' summaries.
  bool waitsEachIteration(const clang::Stmt *Loop, const clang::FunctionDecl *F,
                          unsigned Depth);
  // A loop every thread of a kernel runs whole (longThreadLoop); Rounds says
  // how long: "256 rounds", or the condition that counts them at run time.
  struct LongLoop {
    const clang::Stmt *Loop = nullptr;
    std::string Rounds;
  };
  // A blocking call in a hot loop that launches, before it is judged.
  // Freed: for an allocation, the free of the same loop. LongLaunch and
  // Long: for a synchronization, a kernel the loop launches whose threads
  // each run a long loop, and that loop.
  struct Pending {
    const Reach *Op;
    const clang::Stmt *Loop;
    const Reach *Launch;
    const Reach *Freed;
    const Reach *LongLaunch = nullptr;
    const LongLoop *Long = nullptr;
  };
  // What a pending call is, when it is reported: a warning or a note, and
  // how a note of another finding of its loop names it.
  struct Verdict {
    const Pending *P;
    bool Warning;
    std::string What;
    std::optional<uint64_t> Bytes;
    bool Small;
  };
  std::optional<Verdict> verdict(const Pending &P, const clang::FunctionDecl *F,
                                 unsigned Depth);
  // One finding per loop, the loop's other blocking calls as its notes.
  void report(llvm::ArrayRef<Pending> Found, const clang::FunctionDecl *F,
              unsigned Depth);
  void judge(const Verdict &V, llvm::ArrayRef<const Verdict *> Others);
  // Whether the loop (in the function body Body) is one whose iterations
  // add up: not a fixed handful, not log2(n) passes, not a benchmark timing
  // itself or its repetitions, not a loop over GPUs or problem sizes.
  bool isHot(const clang::Stmt *Loop, const clang::Stmt *Body);
  bool judgeLoop(const clang::Stmt *Loop, const clang::Stmt *Body);
  // The byte count of a copy written with constants, directly or through
  // locals assigned constants only.
  std::optional<uint64_t> bytes(const Reach &Op);
  bool isSmallDeviceToHost(const Reach &Op);
  // A small device-to-host read whose value decides what the code in Scope
  // does next (a convergence flag, the size of the next launch).
  bool smallSteeringRead(const Reach &Op, const clang::Stmt *Scope);
  bool steersThroughCall(const clang::CallExpr *Site, const clang::Stmt *Scope);
  // A loop every thread of Kernel runs whole, long enough that the kernel
  // runs far longer than the microseconds a synchronization costs: at least
  // LongThreadRounds rounds written with constants (a loop nest's counts
  // multiplied), or a count known only at run time that every thread
  // starts and steps alike (a serial walk over the problem, not a
  // grid-stride loop whose rounds the threads share, nor log2(n) passes).
  const LongLoop &longThreadLoop(const clang::FunctionDecl *Kernel);

  // Copies of at most this many bytes are small: host-to-device ones return
  // at once (the runtime stages them), device-to-host ones cost a round
  // trip, not bandwidth.
  int64_t SmallCopyBytes;
  // Loops with a constant trip count below this are not reported.
  int64_t MinIterations;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, Summary>
      Summaries;
  llvm::DenseMap<const clang::Stmt *, bool> HotLoops;
  llvm::DenseMap<const clang::Stmt *, bool> WaitingLoops;
  // A std::map: Pending keeps pointers to its values.
  std::map<const clang::FunctionDecl *, LongLoop> LongLoops;
};

} // namespace warplint::host
