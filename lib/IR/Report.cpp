#include "IR/Report.h"
#include "Arch/ArchTable.h"
#include "llvm/IR/DebugInfoMetadata.h"

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

} // namespace warplint::ir
