// Puts a device module into the shape the barrier analysis judges: each
// barrier seen in the context of the kernel that reaches it, with the -O0
// loads and stores of locals promoted to SSA values.
//
// A barrier inside a __device__ helper, a lambda or a template is divergent or
// not depending on its caller, so helpers are inlined into the kernels (the
// debug locations keep the inlinedAt chain: the call sites for the notes).
// The inliner is LLVM's InlineFunction driven top-down from each kernel, with
// an inline history as in LLVM's inliner so that recursion ends, and a size
// budget so that CUB/Thrust-heavy kernels stay fast: calls on the way to a
// barrier first, then the rest. SROA then promotes the -O0 allocas. A call
// left un-inlined is opaque: uniform when its arguments are, and a barrier
// point if its callee may synchronise. Edges into code that can only abort
// (a trap, a failed assert) and, in a kernel, into a `return` that ends the
// thread (an early `return`, or the end of a last `if` that the threads
// skip) are cut: a barrier waits for the threads that have not exited.
#pragma once
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/PassManager.h"
#include <functional>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class MDNode;
class Module;
} // namespace llvm

namespace warplint::ir {

struct PrepareOptions {
  // Instructions a function may grow to by inlining; past it, calls stay.
  unsigned InlineBudget = 20000;
  // Functions defined in system headers (CUB's own kernels): not judged as
  // roots, since nothing in them could be reported. Inlined all the same.
  std::function<bool(const llvm::Function &)> InSystemHeader;
  // blockDim.x of every launch of a kernel, when the host code's launches
  // agree on a literal one; 0 when unknown.
  std::function<unsigned(const llvm::Function &)> BlockDimX;
  // Per argument of a kernel, the constant every launch passes for it, if
  // they agree on one (the witnesses' runs use them).
  std::function<std::vector<std::optional<int64_t>>(const llvm::Function &)>
      LaunchedArguments;
};

struct PreparedModule {
  // The functions to judge: kernels first, then device functions that may
  // synchronise and were not inlined into every caller (judged on their own,
  // their arguments taken as uniform).
  std::vector<llvm::Function *> Roots;
  // Functions that may execute a block-wide barrier, through calls too.
  llvm::DenseSet<const llvm::Function *> Synchronising;
};

// Transforms M in place (clone it first if it is still needed as it was).
PreparedModule prepareModule(llvm::Module &M,
                             llvm::FunctionAnalysisManager &FAM,
                             const PrepareOptions &Opts = {});

// A barrier point: a block-wide barrier, or a call to a function that may
// execute one. Its identity survives inlining: every inlined copy of one
// barrier has the same tag, so that it is reported once.
const llvm::MDNode *barrierTag(const llvm::CallBase &CB);

bool isKernel(const llvm::Function &F);

} // namespace warplint::ir
