// divergence-barrier's findings from the IR layer, mapped to the source of
// the parse: each divergent verdict that has a witness (IR/IRWitness.h) and
// that the AST layer did not already report, and, once every piece is
// judged, the AST layer's findings the optimised code refutes.
#pragma once
#include "IR/BarrierDivergence.h"
#include "IR/Report.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <vector>

namespace warplint {

class CheckContext;
class DiagSink;

// What the barrier analysis judged, as source positions: the pieces' IR is
// gone by the time every piece is judged.
struct JudgedBarriers {
  struct Verdict {
    std::vector<ir::Frame> Frames; // the barrier, then its call sites
    bool Divergent = false;
  };
  std::vector<Verdict> Verdicts;
  // The functions with code in a judged root after inlining: each one's
  // declaration (the debug info's file and line of its name).
  std::vector<ir::Frame> Functions;
  bool Complete = true; // every piece was judged (none crashed)
};

// Adds R's verdicts and the functions of its judged roots to Out.
void collectJudged(const ir::BarrierResult &R, JudgedBarriers &Out);

class IRBarrierReporter {
public:
  virtual ~IRBarrierReporter() = default;
  // Reports V, a divergent verdict, when it has a witness, the AST layer
  // did not report the barrier or another in its loop, and the source's
  // launch facts do not make its branch uniform.
  virtual void report(const ir::BarrierVerdict &V) = 0;
  // The optimised IR decides what exists: withdraws the AST layer's
  // findings of the check on a barrier the judged code holds only under
  // uniform branches, or does not hold at all although its function was
  // compiled (a dead arm, a constant condition, `if constexpr`). A finding
  // in a function the IR has no code of stays, and says it was judged from
  // the source.
  virtual void settle(const JudgedBarriers &J) = 0;
};

std::unique_ptr<IRBarrierReporter>
createIRBarrierReporter(CheckContext &Ctx, DiagSink &Sink,
                        llvm::StringRef CheckId);

} // namespace warplint
