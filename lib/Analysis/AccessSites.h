// The ways a warp runs each global or shared access: in its own function,
// or in the context of each call chain from a kernel that reaches it
// (AffineAnalysis::reachedAccesses), on each distinct set of lanes that may
// reach it over the warps of the block (LaneEvaluator::mayReach). The
// memory checks judge every way and report the worst.
#pragma once
#include "Analysis/AffineIndex.h"
#include "Analysis/LaneEval.h"
#include "Analysis/ThreadDependence.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace warplint {

// One way a warp runs an access.
struct AccessRun {
  MemoryAccess Access;
  std::vector<CallLink> Chain; // from a kernel inwards; empty: on its own
  WarpPattern Pattern;         // over the lanes of Mask
  uint64_t Mask = 0;           // the lanes that may run it
  unsigned Lanes = 0;          // how many
  bool AllLanes = true;        // every lane the block shape gives the warp
};

// For each access of F to Space whose warp pattern is known somewhere: its
// runs, grouped by access, in the order of F's body. An access that call
// chains from the TU's kernels reach is judged in each of those contexts
// (under the kernel's block shape), one not reached on its own.
std::vector<std::vector<AccessRun>>
accessRuns(AffineAnalysis &AA, ThreadDependenceAnalysis &TDA,
           const clang::FunctionDecl *F, MemorySpace Space, unsigned WarpSize);

// "over the 16 active lanes 0-15", for a run on fewer lanes than
// the warp has; "" otherwise.
std::string activeLanesText(const AccessRun &R, unsigned WarpSize);

// Where a call of a chain is shown: the callee's name (for a lambda's
// call, the lambda object), not its parenthesis.
clang::SourceLocation callLocation(const CallLink &Link);

// The name of a function for a note: "lambda" for a lambda's operator().
std::string functionName(const clang::FunctionDecl *F);

// "'get' called from 'k' with col = threadIdx.x": one call of a chain, the
// arguments that carry the thread index written as the user wrote them.
std::string
describeCall(const CallLink &Link,
             llvm::function_ref<std::string(const clang::Stmt *)> SourceText);

} // namespace warplint
