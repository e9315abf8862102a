// The words and source positions of a divergence-barrier finding from the IR
// layer, shared by the CLI (through CheckContext) and the pass plugin (through
// LLVM diagnostics), so that both say the same thing.
#pragma once
#include "IR/BarrierDivergence.h"
#include "IR/DebugSource.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace llvm {
class DILocation;
} // namespace llvm

namespace warplint {
struct ArchInfo;
} // namespace warplint

namespace warplint::ir {

// One position of an inlinedAt chain.
struct Frame {
  std::string File; // as the debug info names it, made absolute when it can
  unsigned Line = 0, Column = 0;
  std::string Function; // the function this position is in
};

// The positions of L from the innermost (the instruction itself) out to the
// analysed function; each one after the first is a call site.
std::vector<Frame> framesOf(const llvm::DILocation *L);

// What a finding calls the barrier when it is reported at Frames[At]: the
// barrier itself, or the call that leads to it from there.
std::string barrierWhat(const BarrierVerdict &V,
                        const std::vector<Frame> &Frames, size_t At);

// The message, judged for Arch (null: architecture-independent words).
std::string barrierMessage(llvm::StringRef What, const ArchInfo *Arch);

// The end of a divergence-barrier message without a witness (a warning);
// a witness the other layer finds replaces it ("witness: ...").
inline constexpr llvm::StringLiteral NoWitnessWords =
    "no witness: warplint found no two threads of a launch that part here "
    "(the condition depends on data or on values it cannot follow); check "
    "whether it can differ between the threads of a block";

// The AST layer's words for a barrier only part of the block reaches (its
// exit and grid findings are about something else).
inline constexpr llvm::StringLiteral PartialReachWords =
    "is reached by only part of the thread block";
// What such a finding adds when the IR layer did not judge its function.
inline constexpr llvm::StringLiteral JudgedFromSourceWords =
    " (judged from the source: the IR layer has no code of this function, "
    "such as a template this file never instantiates)";
inline constexpr llvm::StringLiteral IRLayerOffWords =
    " (judged from the source: the IR layer is off)";

inline constexpr llvm::StringLiteral SplitNote =
    "the branch that splits the block";

// A grid barrier that only some blocks reach (What: 'grid.sync()').
std::string gridBarrierMessage(llvm::StringRef What);
inline constexpr llvm::StringLiteral GridSplitNote =
    "this branch splits the blocks of the grid";

std::string callNote(llvm::StringRef Caller);

// The witness of a divergent barrier in words, for the message after
// "witness: ". Cond: the blamed branch's condition as written (empty when
// not known); Source: where the data witness's read is ("line 12").
// Inputs: the integer arguments a run with chosen inputs set ("n and C"),
// empty for "every integer argument".
std::string witnessText(const IRWitness &W, llvm::StringRef Cond,
                        llvm::StringRef Source, llvm::StringRef Inputs = "");

} // namespace warplint::ir
