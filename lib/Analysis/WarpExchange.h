// Warp exchanges: lanes of one warp passing values through shared memory
// with no barrier between the write and the read (or between a read and
// another lane's later write of the same bytes), found by running the
// kernel's body for every warp of its block, lane by lane.
//
// Each lane keeps the values of its integer and pointer locals and
// parameters; expressions are evaluated by LaneEval with those values, so
// indices in locals (`pos += size`), loop counters, XOR and other bitwise
// indices, helpers at any depth with their arguments bound (`buf + t`,
// `t & 31`) and pointers returned by small helpers (the samples'
// `SharedMemory<T>()`, whose conversion operator returns an `extern
// __shared__` array) all have a value per lane. Loops run iteration by
// iteration while their conditions are known (up to a budget); a loop whose
// condition is not known in some lane runs twice with the values it changes
// forgotten after. A branch whose condition is unknown runs both sides, and
// an access on one side is never paired with one on the other (in one run
// every lane takes the same side, or the sides cannot be ordered). A goto,
// a switch or a budget spent ends the run of that warp: what was found
// before stays.
//
// Block barriers, __syncwarp, named barriers, the warp's _sync collectives
// and library calls that synchronise (BarrierSummary) end the window in
// which accesses are paired.
#pragma once
#include "Analysis/AffineIndex.h"
#include "Analysis/LaneEval.h"
#include "Analysis/ThreadDependence.h"
#include <vector>

namespace warplint {

struct WarpExchange {
  // The later access (where a finding goes) and the earlier one it pairs
  // with: a read after another lane's write (ReadAfterWrite), or a write
  // after another lane's read of the same bytes.
  const clang::Expr *Later = nullptr;
  const clang::Expr *Earlier = nullptr;
  bool ReadAfterWrite = true;
  // The calls from the kernel inwards that reach each access.
  std::vector<const clang::CallExpr *> LaterChain, EarlierChain;
  bool SameStatement = false;    // one run of one statement
  bool EarlierIteration = false; // the same access, an earlier run of it
  const clang::ValueDecl *Root = nullptr; // the __shared__ variable
  unsigned Warp = 0;
  uint64_t LaterLanes = 0, EarlierLanes = 0; // lanes of that warp
  // One pair: a lane of the later access and the lane whose access it meets.
  unsigned WitnessLater = 0, WitnessEarlier = 0;
};

// The exchanges of Kernel's warps, at most one per shared variable (the
// first in program order, in the first warp that makes one).
// Lanes: the kernel's lane evaluator (LaneEngine::lanes).
std::vector<WarpExchange> findWarpExchanges(LaneEvaluator Lanes);

} // namespace warplint
