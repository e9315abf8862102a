#include "IR/AlignedAA.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include <algorithm>

using namespace llvm;

namespace warplint::ir {

AnalysisKey AlignedAA::Key;

namespace {

// The alignment Base is known to have: its own, or what a load or store at a
// constant offset from it promises (an access at Base + Off aligned to A
// puts Base at the alignment common to A and Off). An access anywhere in
// the function counts: the question is what nvcc's optimiser may assume
// of the pointer, and a misaligned one would fault there.
Align knownAlignment(const Value *Base, const DataLayout &DL) {
  Align Best = Base->getPointerAlignment(DL);
  auto FromAccess = [&](const User *U, const Value *Ptr, uint64_t Off) {
    MaybeAlign A;
    if (const auto *L = dyn_cast<LoadInst>(U);
        L && L->getPointerOperand() == Ptr)
      A = L->getAlign();
    else if (const auto *S = dyn_cast<StoreInst>(U);
             S && S->getPointerOperand() == Ptr)
      A = S->getAlign();
    if (A)
      Best = std::max(Best, commonAlignment(*A, Off));
  };
  for (const User *U : Base->users()) {
    FromAccess(U, Base, 0);
    // One level of constant offsets: `.y` of the element Base points at.
    const auto *GEP = dyn_cast<GEPOperator>(U);
    if (!GEP || GEP->getPointerOperand() != Base)
      continue;
    APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (!GEP->accumulateConstantOffset(DL, Off) || Off.isNegative())
      continue;
    for (const User *GU : GEP->users())
      FromAccess(GU, GEP, Off.getZExtValue());
  }
  return Best;
}

} // namespace

AliasResult AlignedAAResult::alias(const MemoryLocation &LocA,
                                   const MemoryLocation &LocB, AAQueryInfo &,
                                   const Instruction *) {
  if (!LocA.Size.hasValue() || !LocB.Size.hasValue() ||
      LocA.Size.isScalable() || LocB.Size.isScalable())
    return AliasResult::MayAlias;
  const auto *IA = dyn_cast<Instruction>(LocA.Ptr->stripPointerCasts());
  const Function *F = IA ? IA->getFunction()
                      : isa<Argument>(LocA.Ptr)
                          ? cast<Argument>(LocA.Ptr)->getParent()
                          : nullptr;
  if (!F)
    return AliasResult::MayAlias;
  const DataLayout &DL = F->getDataLayout();
  auto Split = [&](const Value *P, APInt &Off) {
    return P->stripAndAccumulateConstantOffsets(DL, Off,
                                                /*AllowNonInbounds=*/true);
  };
  unsigned Bits = DL.getIndexTypeSizeInBits(LocA.Ptr->getType());
  if (Bits != DL.getIndexTypeSizeInBits(LocB.Ptr->getType()))
    return AliasResult::MayAlias;
  APInt OffA(Bits, 0), OffB(Bits, 0);
  const Value *BaseA = Split(LocA.Ptr, OffA);
  const Value *BaseB = Split(LocB.Ptr, OffB);
  uint64_t A =
      std::min(knownAlignment(BaseA, DL), knownAlignment(BaseB, DL)).value();
  uint64_t SizeA = LocA.Size.getValue(), SizeB = LocB.Size.getValue();
  if (A < 2 || SizeA + SizeB > A)
    return AliasResult::MayAlias;
  // B's first byte relative to A's, modulo the common alignment: the ranges
  // overlap unless B starts at or after A's end and ends by A's next start.
  uint64_t D = (OffB - OffA).getZExtValue() & (A - 1);
  if (D >= SizeA && D + SizeB <= A)
    return AliasResult::NoAlias;
  return AliasResult::MayAlias;
}

void registerAlignedAA(PassBuilder &PB, FunctionAnalysisManager &FAM) {
  FAM.registerPass([] { return AlignedAA(); });
  FAM.registerPass([&PB] {
    AAManager AA = PB.buildDefaultAAPipeline();
    AA.registerFunctionAnalysis<AlignedAA>();
    return AA;
  });
}

} // namespace warplint::ir
