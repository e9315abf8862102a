#include "IR/DivergenceSources.h"
#include "IR/Barriers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace warplint::ir {

namespace {

using IU = InstructionUniformity;

// PTX special registers (llvm.nvvm.read.ptx.sreg.<name>) that differ between
// the threads of a block. %ctaid, %ntid, %nctaid, %warpsize, %nwarpid,
// %nsmid, %gridid and the cluster registers are the same for the whole block.
bool isThreadVaryingRegister(StringRef Name) {
  return Name.starts_with("tid.") || Name == "laneid" ||
         Name.starts_with("lanemask") || Name.starts_with("clock") ||
         Name.starts_with("globaltimer") || Name == "warpid" ||
         Name == "smid" || Name.starts_with("pm");
}

// Warp collectives and atomics: the result differs from thread to thread,
// or at best is the same within one warp. A shuffle is not here: it returns
// some lane's copy of its value operand, uniform when that operand is.
bool isThreadVaryingIntrinsic(StringRef Name) {
  static constexpr StringLiteral Prefixes[] = {
      "vote.",
      "match.",
      "redux.",
      "atomic.",
      "wmma.",
      "mma.",
      "ldmatrix.",
      "elect.",
      "activemask",
      "tcgen05.ld",
      "mbarrier.try_wait",
      "mbarrier.test_wait",
  };
  for (StringRef P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

IU intrinsicUniformity(StringRef Name) {
  if (Name == "llvm.readcyclecounter" || Name == "llvm.readsteadycounter")
    return IU::NeverUniform;
  if (!Name.consume_front("llvm.nvvm."))
    return IU::Default; // target-independent: depends on its operands
  if (Name.consume_front("read.ptx.sreg."))
    return isThreadVaryingRegister(Name) ? IU::NeverUniform : IU::Default;
  return isThreadVaryingIntrinsic(Name) ? IU::NeverUniform : IU::Default;
}

// libdevice's math (__nv_sinf, ...) is pure; anything else declared but not
// defined here may read the thread's position or private state.
bool isKnownPure(const Function &F) { return F.getName().starts_with("__nv_"); }

// Inline asm whose result may differ between threads for reasons other than
// its operands: it reads a per-thread special register (%tid, %laneid,
// %lanemask_*, %clock, %smid, %warpid, ...), or is an atomic or a warp
// exchange. Anything else (bfind, prmt, bit tricks, %ctaid, cooperative
// groups' %reserved_smem) is as uniform as its operands.
bool isThreadSourceAsm(const InlineAsm &IA) {
  StringRef Text = IA.getAsmString();
  for (size_t I = Text.find('%'); I != StringRef::npos;
       I = Text.find('%', I + 1)) {
    StringRef Reg = Text.substr(I + 1).take_while(
        [](char C) { return isAlnum(C) || C == '_' || C == '.'; });
    if (StringSwitch<bool>(Reg)
            .StartsWith("tid", true)
            .StartsWith("laneid", true)
            .StartsWith("lanemask", true)
            .StartsWith("clock", true)
            .StartsWith("globaltimer", true)
            .StartsWith("smid", true)
            .StartsWith("warpid", true)
            .StartsWith("pm", true)
            .Default(false))
      return true;
  }
  for (StringRef Op : {"atom.", "red.", "shfl.", "vote.", "match.",
                       "activemask", "redux.", "elect."})
    if (Text.contains(Op))
      return true;
  return false;
}

IU callUniformity(const CallBase &CB) {
  if (isBlockReduction(&CB))
    return IU::AlwaysUniform;
  if (const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand())) {
    if (CB.getType()->isVoidTy() || !isThreadSourceAsm(*IA))
      return IU::Default;
    return IU::NeverUniform;
  }
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return IU::NeverUniform; // an indirect call: no body to look into
  if (Callee->isIntrinsic())
    return intrinsicUniformity(Callee->getName());
  if (Callee->isDeclaration() && !isKnownPure(*Callee))
    return IU::NeverUniform;
  return IU::Default;
}

bool mayPointToPrivateMemory(const Value *Ptr) {
  if (Ptr->getType()->getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_LOCAL)
    return true;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return any_of(Objects, [](const Value *O) {
    return isa<AllocaInst>(O) || O->getType()->getPointerAddressSpace() ==
                                     NVPTXAS::ADDRESS_SPACE_LOCAL;
  });
}

class BlockUniformityTTI : public TargetTransformInfoImplBase {
public:
  explicit BlockUniformityTTI(const DataLayout &DL)
      : TargetTransformInfoImplBase(DL) {}
  bool hasBranchDivergence(const Function *) const override { return true; }
  InstructionUniformity
  getInstructionUniformity(const Value *V) const override {
    return blockUniformityOf(V);
  }
};

} // namespace

InstructionUniformity blockUniformityOf(const Value *V) {
  if (isa<AtomicRMWInst>(V) || isa<AtomicCmpXchgInst>(V))
    return IU::NeverUniform;
  if (const auto *L = dyn_cast<LoadInst>(V))
    return mayPointToPrivateMemory(L->getPointerOperand()) ? IU::NeverUniform
                                                           : IU::Default;
  if (const auto *CB = dyn_cast<CallBase>(V))
    return callUniformity(*CB);
  return IU::Default;
}

TargetIRAnalysis blockUniformityTargetAnalysis() {
  return TargetIRAnalysis([](const Function &F) {
    return TargetTransformInfo(
        std::make_unique<BlockUniformityTTI>(F.getDataLayout()));
  });
}

} // namespace warplint::ir
