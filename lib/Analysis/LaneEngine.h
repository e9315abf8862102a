// The per-lane engine: the one place the checks ask what each lane of a
// block computes, and under which launch.
//
// Its layers, one question each, share one translation unit's state here:
// - ThreadDependence: whether a value or a statement differs between the
//   threads of a block or of a warp (the uniformity lattice, uniformity by
//   value, votes and warp reductions, guards and early exits);
// - AffineIndex: an index or address as an affine form of the thread index,
//   with helpers and lambdas inlined, and the launches of the TU;
// - LaneEval: the concrete value of an expression in each lane of each warp
//   (branches split by the lanes they separate, trip counts per lane);
// - WarpExchange: the values lanes pass each other through memory.
// The engine gives all of them the same launch shape for a function
// (shape()): a kernel's launches, agreed over a template's instantiations,
// and for a __device__ helper the shape every kernel that reaches it agrees
// on. A check asks the engine, never a layer it builds itself, so a fix to a
// shape or to a value reaches every check.
#pragma once
#include "Analysis/AffineIndex.h"
#include "Analysis/Budget.h"
#include "Analysis/CallGraph.h"
#include "Analysis/LaneEval.h"
#include "Analysis/ThreadDependence.h"
#include "Analysis/WarpExchange.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <vector>

namespace warplint {

class LaneEngine {
public:
  LaneEngine(clang::ASTContext &Ctx, unsigned WarpSize);

  ThreadDependenceAnalysis &dependence() { return TDA; }
  AffineAnalysis &affine() { return *Affine; }
  // Built at the first query (the checks run at the end of the TU).
  const CallGraphView &callGraph();
  unsigned warpSize() const { return WarpSize; }

  // F's thread dependence, its parameters as a kernel's (uniform) when F is
  // a kernel, unknown otherwise.
  FunctionDependence &uniformity(const clang::FunctionDecl *F) {
    return TDA.forFunction(F);
  }

  // F's thread dependence with its parameters as thread-dependent as the
  // arguments its calls in the TU pass (joined over the calls, each judged
  // the same way in its caller, up to MaxDeviceCallDepth callers): a
  // helper called as `tree(s, threadIdx.x)` has a thread-dependent `tid`,
  // one called with uniform arguments only uniform ones. A kernel, or a
  // helper without calls here (or called from a template as written):
  // uniformity(F).
  FunctionDependence &callerUniformity(const clang::FunctionDecl *F,
                                       unsigned Depth = 0);
  // The block shape F runs under. A kernel: the literal shape its launches
  // in the TU agree on; a template as written: the shape its
  // instantiations' launches agree on (a run-time z's choices joined). A
  // __device__ function: the shape every kernel that reaches it (through
  // the call graph, up to MaxDeviceCallDepth calls) agrees on. Unknown
  // (X == 0) where any of them is unknown or two disagree.
  BlockShape shape(const clang::FunctionDecl *F);

  // The kernels that reach F through calls of the user's code, F itself if
  // it is a kernel; false when a chain is longer than MaxDeviceCallDepth or
  // F has no caller in the TU.
  bool kernelsReaching(const clang::FunctionDecl *F,
                       llvm::SmallVectorImpl<const clang::FunctionDecl *> &Out,
                       unsigned Depth = 0);

  // A lane evaluator for F under shape(F) (or an explicit shape). A
  // __device__ helper's integer parameters are bound to the arguments of
  // its calls in the TU (through up to MaxBoundCallDepth callers, each
  // evaluated under the same shape): a parameter every call passes the
  // same per-thread value (`threadIdx.x`, `threadIdx.x % 32`) is
  // evaluated lane by lane.
  LaneEvaluator lanes(const clang::FunctionDecl *F) {
    return lanes(F, shape(F));
  }
  LaneEvaluator lanes(const clang::FunctionDecl *F, const BlockShape &Shape);

  // Whether the branch or loop Where (in F) takes every thread of the block
  // the same way at every launch that runs it: Kernel's (F reached through
  // a call chain from it), or else those of the kernels that reach F; in a
  // template as written, at each instantiation with its own constants. A
  // branch: its condition has the same value in every thread of the
  // launched block, each thread evaluated (`threadIdx.x < 256` with 256
  // threads, `threadIdx.y < 4` with blockDim.y 4). A loop: a block-stride
  // loop whose bound is a multiple of its stride, with blockDim.x no larger
  // than the stride (`for (i = threadIdx.x; i < 256; i += blockDim.x)` with
  // 256 threads: one trip each). False where a launch shape is unknown.
  bool sameForLaunch(const clang::Stmt *Where, const clang::FunctionDecl *F,
                     const clang::FunctionDecl *Kernel = nullptr);

  // The warp-synchronous exchanges of a kernel, traced with lanes(Kernel)
  // once (the targets of a parse ask again).
  const std::vector<WarpExchange> &exchanges(const clang::FunctionDecl *Kernel);

  // The constants every launch of Kernel in the file passes for its
  // parameter P (P a parameter of Fn, which must be Kernel); nothing when a
  // launch passes another value or there is none.
  std::optional<llvm::SmallVector<int64_t, 4>>
  launchedArguments(const clang::FunctionDecl *Kernel,
                    const clang::FunctionDecl *Fn, const clang::ParmVarDecl *P);

private:
  BlockShape kernelShape(const clang::FunctionDecl *Kernel);
  // Gives E the affine forms where they model E's shape.
  void useForms(LaneEvaluator &E);
  void bindParameters(LaneEvaluator &E, const BlockShape &Shape,
                      unsigned Depth);

  clang::ASTContext &Ctx;
  unsigned WarpSize;
  ThreadDependenceAnalysis TDA;
  std::unique_ptr<AffineAnalysis> Affine;
  std::unique_ptr<CallGraphView> Calls;
  std::optional<std::vector<const clang::CallExpr *>> Launches;
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Shapes;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<WarpExchange>>
      Exchanges;
  // kernelsReaching's answers, per function and call depth: without them a
  // helper called from many places, whose callers are too, is walked once
  // per path (exponential in a deep template library's call graph).
  llvm::DenseMap<
      std::pair<const clang::FunctionDecl *, unsigned>,
      std::optional<llvm::SmallVector<const clang::FunctionDecl *, 4>>>
      Reaching;
  // callerUniformity's answers, per function and call depth.
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 FunctionDependence *>
      CallerContexts;
};

} // namespace warplint
