// What divergence-barrier asks of a kernel's statements beside its own
// rules: a barrier's name for a message, the first barrier of a region, and
// the exits a top-level statement holds inside its arms, deeper than
// `if (c) return;` (`if (blockDim.x <= 32) { if (tid == 0) { ...; return;
// } }`), for ReportAllExits, which reports a barrier after any
// thread-dependent exit, as HIP on AMD GPUs may wait for the threads that
// left.
#pragma once
#include "Analysis/ThreadDependence.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace warplint::divergence {

// A block-level divergence is one that some threads of the block do not
// share: thread-dependent, or different between warps (a warp id, a vote).
inline bool splitsBlock(Dependence D) {
  return D == Dependence::ThreadDependent || D == Dependence::WarpUniform;
}

// How a message names a barrier: `__syncthreads()`, `asm bar.sync`, or
// the called function's qualified name.
std::string barrierName(const clang::Stmt *Site);

struct NestedExit {
  const clang::ReturnStmt *Return;
  // The innermost condition around it that splits the block.
  const clang::Expr *Cond;
};

// The returns of Top (a statement of a kernel's body) that only some
// threads of a block take: under an `if` whose condition is thread-dependent
// or differs between warps, and in no loop, switch or lambda (whose
// returns and exits are the loop rule's, or not the kernel's).
std::vector<NestedExit> nestedExits(const clang::Stmt *Top,
                                    FunctionDependence &FD);

// Whether Site never runs because a condition around it is a constant of
// the source (macros, constexpr values): the dead arm of `(N > 32) ?
// __syncthreads() : __syncwarp()` or of an `if` whose condition folds
// (ruledOutArm). What nvcc's code does not hold is no finding.
bool deadBySourceConstants(const clang::Stmt *Site, FunctionDependence &FD);

// Whether Site, a barrier (or a call that runs one) of Loop's body, is an
// echo of Exit, a thread-dependent break, continue or return out of Loop:
// Site comes before Exit in the body, and a block barrier comes after it
// there. The threads that take Exit miss that later barrier in the round
// they leave, which is the finding; Site they miss only in later rounds,
// the same defect, if the others run one at all (they often leave too,
// on a flag the leaver set before that barrier).
bool echoOfLoopExit(const clang::Stmt *Site, const clang::Stmt *Loop,
                    const clang::Stmt *Exit, const clang::SourceManager &SM);

// The first block barrier of Stmts, in source order, at any depth (not in
// a lambda).
const clang::Stmt *firstBlockBarrier(llvm::ArrayRef<const clang::Stmt *> Stmts);

} // namespace warplint::divergence
