#include "IR/OptimisedAccesses.h"
#include "IR/DebugSource.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"
#include <mutex>

using namespace llvm;

namespace warplint::ir {

namespace {

// A load or store of memory that outlives the function (not a local).
bool isMemoryAccess(const Instruction &I) {
  const Value *Ptr = getLoadStorePointerOperand(&I);
  return Ptr && !isa<AllocaInst>(getUnderlyingObject(Ptr));
}

std::optional<SourcePos> positionOf(const Instruction &I) {
  const DILocation *L = I.getDebugLoc().get();
  if (!L || !L->getLine())
    return std::nullopt;
  return SourcePos{pathOf(L->getFile()), L->getLine(), L->getColumn()};
}

unsigned bytesOf(const Instruction &I) {
  return unsigned(I.getModule()->getDataLayout().getTypeStoreSize(
      getLoadStoreType(const_cast<Instruction *>(&I))));
}

std::unique_ptr<TargetMachine> nvptxMachine(const Module &M, StringRef CPU) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
  std::string Error;
  const Triple &TT = M.getTargetTriple();
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return nullptr;
  return std::unique_ptr<TargetMachine>(
      T->createTargetMachine(TT, CPU, "", TargetOptions(), std::nullopt,
                             std::nullopt, CodeGenOptLevel::Aggressive));
}

// One access as the vectoriser found it.
struct Original {
  WeakVH I;
  BasicBlock *BB;
  const SCEV *Ptr;
  Type *PtrTy;
  bool IsStore;
  unsigned Bytes;
  SourcePos Pos;
};

} // namespace

std::string OptimisedAccesses::key(const SourcePos &Pos, bool IsStore) {
  return Pos.File + ":" + std::to_string(Pos.Line) + ":" +
         std::to_string(Pos.Column) + (IsStore ? ":st" : ":ld");
}

std::unique_ptr<OptimisedAccesses>
OptimisedAccesses::analyse(const Module &Src, StringRef CPU) {
  std::unique_ptr<TargetMachine> TM = nvptxMachine(Src, CPU);
  if (!TM)
    return nullptr;
  auto Out = std::unique_ptr<OptimisedAccesses>(new OptimisedAccesses);
  std::unique_ptr<Module> M = CloneModule(Src);
  // A __shared__ array the code reads but never writes (a test's, or one
  // filled by inline assembly) is not the undefined value the optimiser
  // would fold its loads to: the accesses stay to be judged.
  for (GlobalVariable &GV : M->globals())
    if (!GV.isConstant())
      GV.setExternallyInitialized(true);
  for (Function &F : *M) {
    if (F.isDeclaration())
      continue;
    F.addFnAttr("target-cpu", CPU);
    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I))
        if (auto Pos = positionOf(I))
          Out->Records[key(*Pos, isa<StoreInst>(I))].Generated = true;
  }

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  // What clang runs at -O3 for NVPTX (the target's callbacks included).
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3).run(*M, MAM);

  for (Function &F : *M) {
    if (F.isDeclaration())
      continue;
    // What the NVPTX code generator runs before it vectorises: generic
    // pointers to their address space, then the alignment that follows
    // (an 8-aligned __shared__ array at an even index), which the vectoriser
    // needs to merge.
    FunctionPassManager FPM;
    FPM.addPass(InferAddressSpacesPass());
    FPM.addPass(InferAlignmentPass());
    FAM.invalidate(F, FPM.run(F, FAM));

    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    std::vector<Original> Before;
    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I))
        if (auto Pos = positionOf(I)) {
          Value *Ptr = getLoadStorePointerOperand(&I);
          Before.push_back({WeakVH(&I), I.getParent(), SE.getSCEV(Ptr),
                            Ptr->getType(), isa<StoreInst>(I), bytesOf(I),
                            *Pos});
        }
    // Run by hand so that the SCEVs above stay valid until matched.
    PreservedAnalyses PA = LoadStoreVectorizerPass().run(F, FAM);

    // The accesses that survived, each block's with their pointers' SCEVs.
    DenseMap<BasicBlock *, SmallVector<Instruction *, 8>> After;
    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I))
        After[I.getParent()].push_back(&I);
    for (const Original &O : Before) {
      Record &R = Out->Records[key(O.Pos, O.IsStore)];
      if (O.I) { // untouched
        R.Survivors.push_back({false, O.Bytes, 0, ""});
        continue;
      }
      // Merged: a wider access of the same kind in its block whose address
      // is a constant number of bytes below the original's.
      for (Instruction *V : After.lookup(O.BB)) {
        Value *Ptr = getLoadStorePointerOperand(V);
        unsigned Bytes = bytesOf(*V);
        if (isa<StoreInst>(V) != O.IsStore || Bytes <= O.Bytes ||
            Ptr->getType() != O.PtrTy)
          continue;
        const auto *D =
            dyn_cast<SCEVConstant>(SE.getMinusSCEV(O.Ptr, SE.getSCEV(Ptr)));
        if (!D || D->getAPInt().isNegative() ||
            D->getAPInt().getZExtValue() + O.Bytes > Bytes)
          continue;
        std::optional<SourcePos> At = positionOf(*V);
        R.Survivors.push_back(
            {true, Bytes, unsigned(D->getAPInt().getZExtValue()),
             (At ? key(*At, O.IsStore) : std::string("?")) + "/" +
                 std::to_string(Bytes)});
        break;
      }
    }
    FAM.invalidate(F, PA);

    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I))
        if (const DILocation *L = I.getDebugLoc().get();
            L && L->getLine() && !L->getColumn())
          Out->LinesWithoutColumn[pathOf(L->getFile()) + ":" +
                                  std::to_string(L->getLine())] = true;
  }
  return Out;
}

AccessFate OptimisedAccesses::fate(const SourcePos &Pos, bool IsStore) const {
  auto It = Records.find(key(Pos, IsStore));
  if (It == Records.end() || !It->second.Generated)
    return {};
  const std::vector<Instance> &S = It->second.Survivors;
  if (S.empty()) {
    if (LinesWithoutColumn.count(Pos.File + ":" + std::to_string(Pos.Line)))
      return {};
    AccessFate F;
    F.K = AccessFate::Removed;
    return F;
  }
  for (const Instance &I : S)
    if (!I.Merged) {
      AccessFate F;
      F.K = AccessFate::Kept;
      return F;
    }
  // Every copy merged: the verdict changes only if they agree.
  for (const Instance &I : S)
    if (I.Bytes != S[0].Bytes || I.Offset != S[0].Offset ||
        I.Group != S[0].Group)
      return {};
  return {AccessFate::Merged, S[0].Bytes, S[0].Offset, S[0].Group};
}

} // namespace warplint::ir
