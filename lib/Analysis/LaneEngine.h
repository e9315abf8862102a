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

  // A lane evaluator for F under shape(F) (or an explicit shape).
  LaneEvaluator lanes(const clang::FunctionDecl *F) {
    return LaneEvaluator(F, shape(F), WarpSize);
  }
  LaneEvaluator lanes(const clang::FunctionDecl *F, const BlockShape &Shape) {
    return LaneEvaluator(F, Shape, WarpSize);
  }

  // The warp-synchronous exchanges of a kernel, under shape(Kernel).
  std::vector<WarpExchange> exchanges(const clang::FunctionDecl *Kernel);

private:
  BlockShape kernelShape(const clang::FunctionDecl *Kernel);

  clang::ASTContext &Ctx;
  unsigned WarpSize;
  ThreadDependenceAnalysis TDA;
  std::unique_ptr<AffineAnalysis> Affine;
  std::unique_ptr<CallGraphView> Calls;
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Shapes;
};

} // namespace warplint
