// divergence-barrier's witnesses: for a barrier that only part of the block
// reaches, two threads of a launch shape (the one the file launches, or a
// 1-D block the text states) of which one reaches the barrier and the other
// does not, or the inputs under which two threads part. A finding with a
// witness is an error a user can check in a minute; one without is a note.
#pragma once
#include "Analysis/LaneEngine.h"
#include "Analysis/ThreadDependence.h"
#include <functional>
#include <optional>
#include <string>

namespace warplint::divergence {

struct BarrierWitness {
  // The two threads (linear ids in the block, x fastest), or -1.
  int64_t Reaches = -1, Misses = -1;
  // The block the threads were evaluated in (0: not evaluated).
  unsigned BlockThreads = 0;
  // The witness in words: "thread 0 reaches it and thread 100 does not, in
  // a block of 256 threads as the file launches it".
  std::string Text;
};

// Quotes a statement's source (the check's sourceText).
using QuoteFn = std::function<std::string(const clang::Stmt *)>;

// A witness for Site, a barrier (or a call that runs one) kept from part of
// the block by guard G of FD's function, or nothing when warplint cannot
// name two threads that part there.
std::optional<BarrierWitness> findBarrierWitness(
    const clang::Stmt *Site, const FunctionDependence::GuardSite &G,
    FunctionDependence &FD, LaneEngine &Engine, const QuoteFn &Quote);

} // namespace warplint::divergence
