// An alias analysis that uses what the accesses' alignments prove: two
// locations at constant offsets from bases known to be A-aligned cannot
// overlap when their byte ranges modulo A are disjoint. `ft_k[i].x` (an
// 8-aligned float2's first word) and `ft[i].y` (another 8-aligned float2's
// second word) are at 0 and 4 modulo 8, so a store to the one does not keep
// a load of the other in place; NVVM makes this argument, so nvcc merges
// `ft[i].x` and `ft[i].y` across the store into one 8-byte load, and
// LLVM's own analyses do not. The optimised view of the memory checks adds
// it to the default pipeline to see the accesses nvcc leaves.
#pragma once
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace warplint::ir {

class AlignedAAResult : public llvm::AAResultBase {
public:
  AlignedAAResult() = default;
  // Stateless: every query reads the IR as it is then.
  bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &,
                  llvm::FunctionAnalysisManager::Invalidator &) {
    return false;
  }
  llvm::AliasResult alias(const llvm::MemoryLocation &LocA,
                          const llvm::MemoryLocation &LocB,
                          llvm::AAQueryInfo &AAQI,
                          const llvm::Instruction *CtxI);
};

class AlignedAA : public llvm::AnalysisInfoMixin<AlignedAA> {
  friend llvm::AnalysisInfoMixin<AlignedAA>;
  static llvm::AnalysisKey Key;

public:
  using Result = AlignedAAResult;
  Result run(llvm::Function &, llvm::FunctionAnalysisManager &) {
    return AlignedAAResult();
  }
};

// Registers AlignedAA and an AAManager of PB's default pipeline plus it in
// FAM; call before PB.registerFunctionAnalyses(FAM).
void registerAlignedAA(llvm::PassBuilder &PB,
                       llvm::FunctionAnalysisManager &FAM);

} // namespace warplint::ir
