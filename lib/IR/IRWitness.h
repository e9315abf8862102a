// The witness of a divergent barrier verdict in the optimised IR: two threads
// of the block that part at the branch blamed for it, so that a user can
// check the finding in a minute. Without one, the IR layer reports nothing
// (divergence-barrier's errors carry a witness or are not errors).
//
// The branch blamed is the outermost of the chain of divergent branches that
// control-dependence leads through (PartialReach gives the nearest): both
// threads of a witness reach that branch, as every thread does that enters
// the function, or enters its loop's first round.
//
// Four kinds, tried in order:
//  - Runs (reported as Lanes, with arrival counts): each thread run through
//    the function from its entry with what warplint can compute, as in the
//    next kind; two threads that end arriving at the barrier a different
//    number of times, and the branch where their ways first part;
//  - Lanes: the condition evaluated for each thread (the thread index, the
//    launched blockDim.x, constants, integer arithmetic, a loop's values in
//    its first round) is true in one and false in the other;
//  - Bound: the condition compares a per-thread value, which differs between
//    the two threads, with a block-uniform one warplint cannot evaluate (a
//    kernel argument, a value read from memory): inputs whose bound falls
//    between the two part them (the tail of a grid-stride loop);
//  - Data: the condition is computed from a value each thread reads at its
//    own address (or an atomic's, a shuffle's, a private copy's result):
//    inputs whose two values differ part them.
#pragma once
#include "IR/PartialReach.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/InstrTypes.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace warplint::ir {

struct IRWitness {
  enum class Kind { Lanes, Bound, Data };
  Kind K = Kind::Lanes;
  // The branch the witness threads part at (the outermost of the chain).
  const llvm::Instruction *Branch = nullptr;
  // Linear thread ids (x fastest in a 1-D block).
  int64_t First = 0, Second = 1;
  // Whether First takes the side that leads to the barrier and Second the
  // other (Lanes); false when both sides can lead back to it (a loop).
  bool FirstReaches = false;
  // Lanes: the condition's value in each thread (a branch's 1 or 0, a
  // switch's case value).
  int64_t FirstValue = 1, SecondValue = 0;
  bool Switch = false;
  // Runs: how often each thread arrives at the barrier from the kernel's
  // entry to its end (0, 0 when not run that far), and the round of a loop
  // in which they part at Branch (0: the first, or no loop).
  unsigned FirstArrivals = 0, SecondArrivals = 0, PartRound = 0;
  // Runs with chosen inputs: the value of every integer argument, and the
  // block size assumed (0: launched, BlockDimX) in a grid of one block.
  std::optional<int64_t> Inputs;
  unsigned AssumedBlock = 0;
  // The runs used the constants the file's launches pass for some
  // arguments.
  bool LaunchedArguments = false;
  // The branch's condition is read in the first round of a loop around it.
  bool FirstRound = false;
  // The condition reads the block's position: the threads are block 0's.
  bool Block0 = false;
  // The block the threads were evaluated in: blockDim.x as launched, or 0
  // for any 1-D block of more than max(First, Second) threads.
  unsigned BlockDimX = 0;
  // Data: the read whose per-thread address feeds the condition.
  const llvm::Instruction *Source = nullptr;
};

// A witness for the barrier Point (or a call that runs one), blamed on the
// divergent branch Branch, or nothing. BlockDimX: every launch's blockDim.x, or
// 0; LaunchedArguments: per argument, the constant every launch passes.
std::optional<IRWitness> findIRWitness(
    const llvm::CallBase &Point, const llvm::Instruction &Branch,
    const PartialReach &Reach, const llvm::UniformityInfo &UI,
    const llvm::LoopInfo &LI, unsigned BlockDimX,
    const std::vector<std::optional<int64_t>> &LaunchedArguments = {});

} // namespace warplint::ir
