#include "IR/Report.h"
#include "Arch/ArchTable.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include <algorithm>

using namespace llvm;

namespace warplint::ir {

namespace {

Frame frameOf(const DILocation &L) {
  Frame F;
  F.File = pathOf(L.getScope()->getFile());
  F.Line = L.getLine();
  F.Column = L.getColumn();
  if (const DISubprogram *SP = L.getScope()->getSubprogram())
    F.Function = SP->getName().str();
  return F;
}

} // namespace

std::vector<Frame> framesOf(const DILocation *L) {
  std::vector<Frame> Out;
  for (; L; L = L->getInlinedAt())
    Out.push_back(frameOf(*L));
  return Out;
}

std::string barrierWhat(const BarrierVerdict &V,
                        const std::vector<Frame> &Frames, size_t At) {
  std::string Barrier = "'" + V.Name + "'";
  // Reported at a call: into a system header, or to a helper not inlined.
  std::string Callee = V.Callee;
  if (At > 0 && At < Frames.size())
    Callee = Frames[At - 1].Function;
  // __syncthreads_count() is a header function around the barrier.
  if (Callee.empty() || Callee + "()" == V.Name)
    return Barrier;
  return "'" + Callee + "', which executes " + Barrier + ",";
}

std::string barrierMessage(StringRef What, const ArchInfo *Arch) {
  std::string Out =
      (What + " may be reached by only part of the thread block: it is "
              "control-dependent on a thread-dependent branch; this is "
              "undefined behaviour on every target")
          .str();
  if (!Arch)
    return Out;
  if (Arch->independent_thread_scheduling)
    return Out + " (on " + Arch->Name +
           ", which schedules threads independently, the block can hang or "
           "let threads run past the barrier before the others arrive)";
  return Out + " (on " + Arch->Name +
         ", where a barrier counts whole warps, the block can hang or run on "
         "with wrong results)";
}

std::string gridBarrierMessage(StringRef What) {
  return (What + " is reached by only some blocks of the grid: it is "
                 "control-dependent on a branch whose condition differs "
                 "between blocks; a grid barrier waits for every thread of "
                 "every block of the grid, and the blocks that wait never see "
                 "the others arrive (the grid hangs)")
      .str();
}

std::string callNote(StringRef Caller) {
  return ("called from '" + Caller + "' here").str();
}

namespace {

std::string thread(int64_t Id) { return "thread " + std::to_string(Id); }

std::string blockWords(const IRWitness &W) {
  if (W.Inputs)
    return "in a grid of one block of " +
           std::to_string(W.AssumedBlock ? W.AssumedBlock : W.BlockDimX) +
           " threads" +
           (W.AssumedBlock ? " (the launch is not in this file)"
                           : " as the file launches it");
  std::string Out =
      W.BlockDimX ? "in the block of " + std::to_string(W.BlockDimX) +
                        " threads the file launches"
                  : "in any 1-D block of " +
                        std::to_string(std::max(W.First, W.Second) + 1) +
                        " threads or more (the launch is not in this file)";
  return W.Block0 ? Out + " (block 0 of the grid)" : Out;
}

} // namespace

std::string witnessText(const IRWitness &W, StringRef Cond, StringRef Source,
                        StringRef Inputs) {
  std::string Quoted = Cond.empty() ? std::string("the branch's condition")
                                    : "'" + Cond.str() + "'";
  std::string Round = W.FirstRound ? " in the loop's first round" : "";
  switch (W.K) {
  case IRWitness::Kind::Lanes: {
    auto Value = [&](int64_t V) {
      return W.Switch ? std::to_string(V) : std::string(V ? "true" : "false");
    };
    std::string Parts = Quoted + " is " + Value(W.FirstValue) + " in " +
                        thread(W.First) + " and " + Value(W.SecondValue) +
                        " in " + thread(W.Second);
    if (W.FirstArrivals) { // two runs to the end
      auto Times = [](unsigned N) {
        return N == 1 ? std::string("once") : std::to_string(N) + " times";
      };
      std::string Who =
          W.SecondArrivals == 0
              ? thread(W.First) + " arrives at it " + Times(W.FirstArrivals) +
                    " and " + thread(W.Second) + " never"
              : thread(W.First) + " arrives at it " + Times(W.FirstArrivals) +
                    " and " + thread(W.Second) + " " + Times(W.SecondArrivals);
      std::string When =
          W.PartRound
              ? " in round " + std::to_string(W.PartRound + 1) + " of the loop"
              : "";
      std::string For =
          W.Inputs ? " for inputs where " +
                         (Inputs.empty() ? std::string("every integer argument")
                                         : Inputs.str()) +
                         (Inputs.contains(" and ") ? " are " : " is ") +
                         std::to_string(*W.Inputs)
                   : "";
      if (W.LaunchedArguments)
        For += std::string(For.empty() ? " with" : " and") +
               " the arguments every launch in the file passes";
      return Who + " in a run of the kernel" + For + " (they part where " +
             Parts + When + "), " + blockWords(W);
    }
    std::string Who = W.FirstReaches ? thread(W.First) + " reaches it and " +
                                           thread(W.Second) + " does not"
                                     : "one of " + thread(W.First) + " and " +
                                           thread(W.Second) +
                                           " reaches it and the other does not";
    return Who + Round + " (" + Parts + "), " + blockWords(W);
  }
  case IRWitness::Kind::Bound:
    return thread(W.First) + " and " + thread(W.Second) +
           " compare different values with the bound of " + Quoted + Round +
           ": where the bound falls between them (the block that holds the "
           "end of the data), one reaches it and the other does not, " +
           blockWords(W);
  case IRWitness::Kind::Data: {
    std::string Two = W.Second >= 32
                          ? "threads 0 and " + std::to_string(W.Second) +
                                ", of different warps,"
                          : "threads 0 and 1";
    std::string From =
        Source.empty() ? std::string("it depends on") : Source.str();
    if (!isa<LoadInst>(W.Source))
      return "each thread gets its own value from the " +
             std::string(isa<CallBase>(W.Source) ? "call" : "atomic") + " " +
             From + ", and " + Quoted + " is computed from it: " + Two +
             " reach it or not as their values say";
    return Two + " read the value " + From + " at different addresses, and " +
           Quoted +
           " is computed from it: for inputs where the two values differ, "
           "one reaches it and the other does not";
  }
  }
  return "";
}

} // namespace warplint::ir
