#include "IR/DivergenceSources.h"
#include "IR/Barriers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include <limits>
#include <map>
#include <optional>
#include <string>

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

constexpr StringLiteral UniformKind = "warplint.uniform";
// A load from private memory that every thread wrote with the same value.
constexpr StringLiteral PrivateUniformKind = "warplint.uniform.private";

// The thread-dependent part of an integer value: atoms (a %tid register, or
// an atom divided by a constant) with coefficients; the rest is uniform.
struct Part {
  std::map<std::string, int64_t> Atoms;
  bool RestNtidMultiple = true;
};

class PartFinder {
public:
  PartFinder(const UniformityInfo &UI, const LoopInfo &LI) : UI(UI), LI(LI) {}
  // The part of V, as seen from instruction At; nothing if unknown.
  std::optional<Part> of(const Value *V, const Instruction *At,
                         unsigned Depth = 0);

private:
  // What the operators of V say: its atoms, or nothing.
  std::optional<Part> structural(const Value *V, const Instruction *At,
                                 unsigned Depth);
  static void add(Part &Into, const Part &P, int64_t Sign) {
    for (auto &[K, C] : P.Atoms)
      if ((Into.Atoms[K] += Sign * C) == 0)
        Into.Atoms.erase(K);
    Into.RestNtidMultiple &= P.RestNtidMultiple;
  }
  const UniformityInfo &UI;
  const LoopInfo &LI;
};

// V without the casts and the struct fields around it (threadIdx as a dim3:
// an extractvalue of an insertvalue).
const Value *resolve(const Value *V) {
  for (unsigned Hops = 0; Hops < 8; ++Hops) {
    if (isa<ZExtInst, SExtInst, TruncInst>(V)) {
      V = cast<Instruction>(V)->getOperand(0);
    } else if (const auto *EV = dyn_cast<ExtractValueInst>(V)) {
      Value *In = FindInsertedValue(
          const_cast<Value *>(EV->getAggregateOperand()), EV->getIndices());
      if (!In || In == EV)
        return V;
      V = In;
    } else {
      return V;
    }
  }
  return V;
}

std::optional<std::string> sregAtom(const Value *V, bool &IsNtid) {
  V = resolve(V);
  const auto *CB = dyn_cast<CallBase>(V);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  IsNtid = false;
  if (!Callee)
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("llvm.nvvm.read.ptx.sreg."))
    return std::nullopt;
  if (Name.starts_with("ntid."))
    IsNtid = true;
  if (Name.starts_with("tid."))
    return Name.str();
  return std::nullopt;
}

std::optional<Part> PartFinder::of(const Value *V, const Instruction *At,
                                   unsigned Depth) {
  if (Depth > 24)
    return std::nullopt;
  if (std::optional<Part> P = structural(V, At, Depth))
    return P;
  // A value the analysis already calls uniform where At uses it (a kernel
  // argument, bid / H): no thread part, whatever it is computed with. Not a
  // loop's phi, nor a value of a loop that At is outside of (temporal
  // divergence).
  const auto *U = dyn_cast<Instruction>(V);
  bool Uniform = isa<Argument>(V);
  if (U && !isa<PHINode>(U) && !UI.isDivergent(U)) {
    const Loop *L = LI.getLoopFor(U->getParent());
    Uniform = !L || L->contains(At);
  }
  if (!Uniform)
    return std::nullopt;
  Part P;
  P.RestNtidMultiple = false;
  return P;
}

std::optional<Part>
PartFinder::structural(const Value *V, const Instruction *At, unsigned Depth) {
  bool IsNtid;
  if (auto Atom = sregAtom(V, IsNtid)) {
    Part P;
    P.Atoms[*Atom] = 1;
    return P;
  }
  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    Part P;
    P.RestNtidMultiple = C->isZero();
    return P;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (I && (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I)))
    return of(I->getOperand(0), At, Depth + 1);
  // A field of a struct built in registers (threadIdx as a dim3).
  if (const auto *EV = dyn_cast_or_null<ExtractValueInst>(I))
    if (Value *In = FindInsertedValue(
            const_cast<Value *>(EV->getAggregateOperand()), EV->getIndices()))
      if (In != EV)
        return of(In, At, Depth + 1);
  const auto *BO = dyn_cast_or_null<BinaryOperator>(I);
  if (BO && (BO->getOpcode() == Instruction::Add ||
             BO->getOpcode() == Instruction::Sub)) {
    auto L = of(BO->getOperand(0), At, Depth + 1);
    auto R = of(BO->getOperand(1), At, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    add(*L, *R, BO->getOpcode() == Instruction::Sub ? -1 : 1);
    return L;
  }
  if (BO && BO->getOpcode() == Instruction::Mul) {
    auto L = of(BO->getOperand(0), At, Depth + 1);
    auto R = of(BO->getOperand(1), At, Depth + 1);
    if (!L || !R || (!L->Atoms.empty() && !R->Atoms.empty()))
      return std::nullopt;
    bool LN, RN;
    sregAtom(BO->getOperand(0), LN);
    sregAtom(BO->getOperand(1), RN);
    // An atom times a block dimension (a block's thread rank,
    // (tid.z * ntid.y + tid.y) * ntid.x + tid.x): a product atom.
    const Value *Dim = !L->Atoms.empty() && RN   ? BO->getOperand(1)
                       : !R->Atoms.empty() && LN ? BO->getOperand(0)
                                                 : nullptr;
    if (Dim) {
      Dim = resolve(Dim);
      StringRef DimName = cast<CallBase>(Dim)->getCalledFunction()->getName();
      DimName.consume_front("llvm.nvvm.read.ptx.sreg.");
      Part Out;
      // tid.y * ntid.x (+ tid.z * ntid.y * ntid.x): the y and z terms of a
      // block's thread rank, 0 in a 1-D block, the shape the AST layer
      // assumes for thread_rank() too.
      for (auto &[K, N] : (L->Atoms.empty() ? R : L)->Atoms)
        if (!StringRef(K).starts_with("tid.y") &&
            !StringRef(K).starts_with("tid.z"))
          Out.Atoms[K + "*" + DimName.str()] = N;
      Out.RestNtidMultiple = true;
      return Out;
    }
    Part Out;
    Out.RestNtidMultiple =
        LN || RN || L->RestNtidMultiple || R->RestNtidMultiple;
    const Part &Var = L->Atoms.empty() ? *R : *L;
    if (!Var.Atoms.empty()) {
      const auto *C =
          dyn_cast<ConstantInt>(BO->getOperand(L->Atoms.empty() ? 0 : 1));
      if (!C)
        return std::nullopt;
      for (auto &[K, N] : Var.Atoms)
        Out.Atoms[K] = N * C->getSExtValue();
      Out.RestNtidMultiple = Var.RestNtidMultiple;
    }
    return Out;
  }
  if (BO && (BO->getOpcode() == Instruction::SDiv ||
             BO->getOpcode() == Instruction::UDiv ||
             BO->getOpcode() == Instruction::LShr ||
             BO->getOpcode() == Instruction::AShr)) {
    auto L = of(BO->getOperand(0), At, Depth + 1);
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!L || !C || C->isNegative() || C->isZero())
      return std::nullopt;
    if (L->Atoms.empty()) {
      L->RestNtidMultiple = false;
      return L;
    }
    // (U + t) / d == U / d + t / d when U is a multiple of d (U a multiple
    // of ntid, d a group size that divides the block).
    if (L->Atoms.size() != 1 || L->Atoms.begin()->second != 1 ||
        !L->RestNtidMultiple)
      return std::nullopt;
    uint64_t D = C->getZExtValue();
    bool Shift = BO->getOpcode() == Instruction::LShr ||
                 BO->getOpcode() == Instruction::AShr;
    if (Shift && D >= 63)
      return std::nullopt;
    Part Out;
    Out.Atoms["(" + L->Atoms.begin()->first + ")/" +
              std::to_string(Shift ? uint64_t(1) << D : D)] = 1;
    Out.RestNtidMultiple = false;
    return Out;
  }
  if (const auto *Phi = dyn_cast_or_null<PHINode>(I)) {
    // A loop's induction variable: its start, when every trip through the
    // latch adds a uniform step to it; seen from inside its loop only (the
    // threads run the iterations together or the loop is reported anyway).
    const Loop *L = LI.getLoopFor(Phi->getParent());
    if (!L || L->getHeader() != Phi->getParent() || !L->contains(At) ||
        Phi->getNumIncomingValues() != 2)
      return std::nullopt;
    std::optional<Part> Start;
    for (unsigned K = 0; K < 2; ++K) {
      const Value *In = Phi->getIncomingValue(K);
      if (!L->contains(Phi->getIncomingBlock(K))) {
        Start = of(In, At, Depth + 1);
        continue;
      }
      const auto *Step = dyn_cast<BinaryOperator>(In);
      if (!Step || (Step->getOpcode() != Instruction::Add &&
                    Step->getOpcode() != Instruction::Sub))
        return std::nullopt;
      const Value *Other =
          Step->getOperand(0) == Phi ? Step->getOperand(1)
          : Step->getOperand(1) == Phi && Step->getOpcode() == Instruction::Add
              ? Step->getOperand(0)
              : nullptr;
      if (!Other || UI.isDivergent(Other))
        return std::nullopt;
    }
    if (Start)
      Start->RestNtidMultiple = false;
    return Start;
  }
  // Anything else: uniform by the analysis, or unknown.
  if (UI.isDivergent(V))
    return std::nullopt;
  Part P;
  P.RestNtidMultiple = IsNtid;
  return P;
}

} // namespace

// `for (i = tid.x; i < N; i += S)` with S ntid.x or a constant, blockDim.x
// launched as X <= S and N a multiple of S: the compare of the loop's exit
// test.
static bool blockStrideExit(const ICmpInst *Cmp, const LoopInfo &LI,
                            unsigned X) {
  if (!X || (Cmp->getPredicate() != ICmpInst::ICMP_SLT &&
             Cmp->getPredicate() != ICmpInst::ICMP_ULT))
    return false;
  const auto *N = dyn_cast<ConstantInt>(Cmp->getOperand(1));
  const auto *Phi = dyn_cast<PHINode>(resolve(Cmp->getOperand(0)));
  if (!N || N->isNegative() || !Phi || Phi->getNumIncomingValues() != 2)
    return false;
  const Loop *L = LI.getLoopFor(Phi->getParent());
  if (!L || L->getHeader() != Phi->getParent() || !L->contains(Cmp))
    return false;
  bool StartsAtTid = false;
  uint64_t Stride = 0;
  for (unsigned K = 0; K < 2; ++K) {
    const Value *In = Phi->getIncomingValue(K);
    bool IsNtid;
    if (!L->contains(Phi->getIncomingBlock(K))) {
      auto Atom = sregAtom(In, IsNtid);
      StartsAtTid = Atom && *Atom == "tid.x";
      continue;
    }
    const auto *Step = dyn_cast<BinaryOperator>(In);
    if (!Step || Step->getOpcode() != Instruction::Add)
      return false;
    const Value *Other = resolve(Step->getOperand(0)) == Phi
                             ? Step->getOperand(1)
                             : Step->getOperand(0);
    const Value *R = resolve(Other);
    const auto *C = dyn_cast<ConstantInt>(R);
    const auto *CB = dyn_cast<CallBase>(R);
    bool Ntid =
        CB && CB->getCalledFunction() &&
        CB->getCalledFunction()->getName() == "llvm.nvvm.read.ptx.sreg.ntid.x";
    Stride = Ntid ? X : C && !C->isNegative() ? C->getZExtValue() : 0;
  }
  // Thread t < X <= Stride runs ceil((N - t) / Stride) = N / Stride times.
  return StartsAtTid && Stride >= X && N->getZExtValue() % Stride == 0;
}

// A value that is the same in lane l of every warp: a load from __shared__
// memory at `tid.x % 32` (or `& 31`), through casts and a compare with a
// constant. Every warp reads the same 32 slots.
static bool laneOnlySharedLoad(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  V = resolve(V);
  if (const auto *C = dyn_cast<CastInst>(V))
    return laneOnlySharedLoad(C->getOperand(0), Depth + 1);
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    if (isa<Constant>(Cmp->getOperand(1)))
      return laneOnlySharedLoad(Cmp->getOperand(0), Depth + 1);
    if (isa<Constant>(Cmp->getOperand(0)))
      return laneOnlySharedLoad(Cmp->getOperand(1), Depth + 1);
    return false;
  }
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return false;
  const auto *GEP =
      dyn_cast<GEPOperator>(L->getPointerOperand()->stripPointerCasts());
  if (!GEP)
    return false;
  const auto *Base =
      dyn_cast<GlobalVariable>(GEP->getPointerOperand()->stripPointerCasts());
  if (!Base || Base->getAddressSpace() != NVPTXAS::ADDRESS_SPACE_SHARED)
    return false;
  unsigned Lane = 0;
  for (const Use &Idx : GEP->indices()) {
    if (isa<ConstantInt>(Idx))
      continue;
    const Value *I = resolve(Idx);
    while (const auto *C = dyn_cast<CastInst>(I))
      I = resolve(C->getOperand(0));
    const auto *BO = dyn_cast<BinaryOperator>(I);
    const auto *K = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
    if (!K || !((BO->getOpcode() == Instruction::And && K->equalsInt(31)) ||
                ((BO->getOpcode() == Instruction::URem ||
                  BO->getOpcode() == Instruction::SRem) &&
                 K->equalsInt(32))))
      return false;
    bool IsNtid;
    auto Atom = sregAtom(BO->getOperand(0), IsNtid);
    if (!Atom || *Atom != "tid.x")
      return false;
    ++Lane;
  }
  return Lane == 1;
}

// A full-mask vote over values that are the same in lane l of every warp
// (`__all_sync(~0u, buf[tid % 32])` after the warps wrote buf): every warp
// gets the same answer, the block's.
static bool blockVote(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->getName().starts_with("llvm.nvvm.vote.") ||
      CB.arg_size() != 2)
    return false;
  const auto *Mask = dyn_cast<ConstantInt>(CB.getArgOperand(0));
  return Mask && Mask->isAllOnesValue() &&
         laneOnlySharedLoad(CB.getArgOperand(1));
}

bool markUniformByValue(Function &F, const UniformityInfo &UI,
                        const LoopInfo &LI, unsigned BlockDimX) {
  LLVMContext &Ctx = F.getContext();
  PartFinder Finder(UI, LI);
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && UI.isDivergent(CB) && blockVote(*CB)) {
        CB->setMetadata(UniformKind, MDNode::get(Ctx, {}));
        Changed = true;
        continue;
      }
      if (auto *Cmp = dyn_cast<ICmpInst>(&I);
          Cmp && UI.isDivergent(Cmp) && blockStrideExit(Cmp, LI, BlockDimX)) {
        Cmp->setMetadata(UniformKind, MDNode::get(Ctx, {}));
        Changed = true;
        continue;
      }
      // The same thread part on both sides (`t < end + tid` with `t` from
      // `start + tid` stepping uniformly): the compare is of the rests.
      if (auto *Cmp = dyn_cast<ICmpInst>(&I); Cmp && UI.isDivergent(Cmp)) {
        auto L = Finder.of(Cmp->getOperand(0), Cmp);
        auto R = Finder.of(Cmp->getOperand(1), Cmp);
        if (L && R && !L->Atoms.empty() && L->Atoms == R->Atoms) {
          Cmp->setMetadata(UniformKind, MDNode::get(Ctx, {}));
          Changed = true;
        }
        continue;
      }
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || !BO->getType()->isIntegerTy() ||
          BO->getOpcode() != Instruction::Sub || !UI.isDivergent(BO))
        continue;
      auto P = Finder.of(BO, BO);
      if (P && P->Atoms.empty()) {
        BO->setMetadata(UniformKind, MDNode::get(Ctx, {}));
        Changed = true;
      }
    }
  return Changed;
}

// Where Ptr points in the array around it, when Ptr is a GEP result that
// names an array of Stride-byte elements or one element of one: how many
// elements lie before and after it.
static std::optional<std::pair<int64_t, int64_t>>
arrayAround(const Value *Ptr, int64_t Stride, const DataLayout &DL,
            unsigned Depth = 0) {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP)
    return std::nullopt;
  auto Elements = [&](Type *T) -> int64_t {
    const auto *AT = dyn_cast_or_null<ArrayType>(T);
    if (!AT || AT->getNumElements() == 0 ||
        int64_t(DL.getTypeAllocSize(AT->getElementType()).getFixedValue()) !=
            Stride)
      return 0;
    return int64_t(AT->getNumElements());
  };
  // The array itself (`&s.arr`, used as `&s.arr[0]`).
  if (int64_t N = Elements(GEP->getResultElementType()))
    return std::make_pair(int64_t(0), N - 1);
  // One of its elements (`&s.arr[c]`).
  // (The aggregate the last index selects in: the type the indices before
  // it lead to.)
  Type *Within = nullptr;
  unsigned K = 0, Indices = GEP->getNumIndices();
  for (auto GTI = gep_type_begin(GEP); K + 1 < Indices; ++GTI, ++K)
    Within = GTI.getIndexedType();
  const auto *C = dyn_cast<ConstantInt>(GEP->getOperand(Indices));
  if (!C)
    return std::nullopt;
  int64_t At = C->getSExtValue();
  // A step from a pointer into the array (`p + 1`): where that one is.
  if (Indices == 1) {
    auto Base =
        Depth < 8 && int64_t(DL.getTypeAllocSize(GEP->getSourceElementType())
                                 .getFixedValue()) == Stride
            ? arrayAround(GEP->getPointerOperand(), Stride, DL, Depth + 1)
            : std::nullopt;
    if (!Base || At < -Base->first || At > Base->second)
      return std::nullopt;
    return std::make_pair(Base->first + At, Base->second - At);
  }
  int64_t N = Elements(Within);
  if (!N || At < 0 || At >= N)
    return std::nullopt;
  return std::make_pair(At, N - 1 - At);
}

// The bytes [first, last) of the private object A that an access of Size
// bytes through Ptr may touch: constant offsets, struct fields, and a
// variable index into an array type of an inbounds GEP bounded by the
// array's length. Nothing when Ptr is not derived from A that way. Exact
// (if given) says whether the access covers all of [first, last): no
// variable index on the way.
static std::optional<std::pair<int64_t, int64_t>>
bytesOf(const Value *Ptr, const AllocaInst &A, uint64_t Size,
        const DataLayout &DL, bool *Exact = nullptr) {
  int64_t Lo = 0, Hi = int64_t(Size);
  if (Exact)
    *Exact = true;
  for (unsigned Hops = 0; Ptr != &A; ++Hops) {
    if (Hops > 16)
      return std::nullopt;
    if (isa<BitCastInst, AddrSpaceCastInst>(Ptr)) {
      Ptr = cast<Instruction>(Ptr)->getOperand(0);
      continue;
    }
    const auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP)
      return std::nullopt;
    // The aggregate the current index selects in (none for the first).
    Type *Within = nullptr;
    for (auto GTI = gep_type_begin(GEP), E = gep_type_end(GEP); GTI != E;
         Within = GTI.getIndexedType(), ++GTI) {
      const Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        int64_t O = int64_t(DL.getStructLayout(ST)->getElementOffset(
            cast<ConstantInt>(Idx)->getZExtValue()));
        Lo += O;
        Hi += O;
        continue;
      }
      int64_t Stride = int64_t(GTI.getSequentialElementStride(DL));
      if (const auto *C = dyn_cast<ConstantInt>(Idx)) {
        Lo += C->getSExtValue() * Stride;
        Hi += C->getSExtValue() * Stride;
        continue;
      }
      if (!GEP->isInBounds())
        return std::nullopt;
      if (const auto *Array = dyn_cast_or_null<ArrayType>(Within);
          Array && Array->getNumElements() != 0) {
        Hi += int64_t(Array->getNumElements() - 1) * Stride;
      } else if (auto Span = Within ? std::nullopt
                                    : arrayAround(GEP->getPointerOperand(),
                                                  Stride, DL)) {
        // A pointer into an array field indexed at run time (`p[i]` with
        // `p` the array decayed): C++ keeps it within that array.
        Lo -= Span->first * Stride;
        Hi += Span->second * Stride;
      } else {
        return std::nullopt;
      }
      if (Exact)
        *Exact = false;
    }
    Ptr = GEP->getPointerOperand();
  }
  return std::make_pair(Lo, Hi);
}

// The writes into a private object A: the bytes each may cover (all of A
// when not known), and whether it gives every thread the same bytes (its
// operands uniform and every thread of the block reaching it:
// ReachedByAll). Nothing when A's address goes elsewhere (a call, a store
// of the pointer, a phi).
struct PrivateWrite {
  const Instruction *At;
  int64_t Lo, Hi;
  bool Exact;             // writes all of [Lo, Hi)
  bool Uniform;           // the same bytes in every thread of the block
  bool SameBytesWhereRun; // the same bytes in every thread that runs it
};

static std::optional<std::vector<PrivateWrite>>
privateWrites(const AllocaInst &A, const UniformityInfo &UI,
              const std::function<bool(const BasicBlock &)> &ReachedByAll) {
  const DataLayout &DL = A.getDataLayout();
  std::vector<PrivateWrite> Out;
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 16> Seen{&A};
  auto Uniform = [&](const Value *V) { return !UI.isDivergent(V); };
  auto Record = [&](const Instruction &I, const Value *Ptr, const Value *Len,
                    std::optional<uint64_t> Size, bool OperandsUniform) {
    if (const auto *C = dyn_cast_or_null<ConstantInt>(Len))
      Size = C->getZExtValue();
    std::optional<std::pair<int64_t, int64_t>> Bytes;
    bool Exact = false;
    if (Size)
      Bytes = bytesOf(Ptr, A, *Size, DL, &Exact);
    bool Same = OperandsUniform && Uniform(Ptr);
    Out.push_back({&I, Bytes ? Bytes->first : 0,
                   Bytes ? Bytes->second : std::numeric_limits<int64_t>::max(),
                   Bytes && Exact, Same && ReachedByAll(*I.getParent()), Same});
  };
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (isa<LoadInst>(U))
        continue;
      if (const auto *St = dyn_cast<StoreInst>(U)) {
        if (St->getValueOperand() == P)
          return std::nullopt; // the address escapes
        Record(*St, P, nullptr,
               DL.getTypeStoreSize(St->getValueOperand()->getType())
                   .getFixedValue(),
               Uniform(St->getValueOperand()));
        continue;
      }
      const auto *II = dyn_cast<IntrinsicInst>(U);
      if (II && II->isLifetimeStartOrEnd())
        continue;
      if (const auto *MS = dyn_cast_or_null<MemSetInst>(II)) {
        Record(*MS, P, MS->getLength(), std::nullopt,
               Uniform(MS->getValue()) && Uniform(MS->getLength()));
        continue;
      }
      if (const auto *MT = dyn_cast_or_null<MemTransferInst>(II)) {
        if (MT->getRawDest() != P)
          continue; // A is read
        Record(*MT, P, MT->getLength(), std::nullopt,
               !mayPointToPrivateMemory(MT->getRawSource()) &&
                   Uniform(MT->getRawSource()) && Uniform(MT->getLength()));
        continue;
      }
      return std::nullopt;
    }
  }
  return Out;
}

// A private object's writes, indexed by instruction.
struct PrivateObject {
  std::vector<PrivateWrite> Writes;
  DenseMap<const Instruction *, const PrivateWrite *> At;
};

// The write of O that L reads from along the one path into it: walking back
// from L through blocks with a single predecessor, the first write that
// Overlaps. Nothing when the walk meets a join first.
static const PrivateWrite *
lastWriteBefore(const LoadInst &L, const PrivateObject &O,
                const std::function<bool(const PrivateWrite &)> &Overlaps) {
  const BasicBlock *BB = L.getParent();
  auto It = L.getReverseIterator();
  SmallPtrSet<const BasicBlock *, 8> Seen{BB};
  for (unsigned Steps = 0; Steps < 4096; ++Steps) {
    if (++It == BB->rend()) {
      BB = BB->getSinglePredecessor();
      if (!BB || !Seen.insert(BB).second)
        return nullptr;
      It = BB->rbegin();
      if (It == BB->rend())
        return nullptr;
    }
    if (const PrivateWrite *W = O.At.lookup(&*It); W && Overlaps(*W))
      return W;
  }
  return nullptr;
}

bool markUniformPrivateLoads(
    Function &F, const UniformityInfo &UI,
    const std::function<bool(const BasicBlock &)> &ReachedByAll) {
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getDataLayout();
  DenseMap<const AllocaInst *, std::optional<PrivateObject>> Objects;
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    auto *L = dyn_cast<LoadInst>(&I);
    if (!L || !UI.isDivergent(L) || UI.isDivergent(L->getPointerOperand()))
      continue;
    const auto *A =
        dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand()));
    if (!A || A->getFunction() != &F)
      continue;
    auto [It, New] = Objects.try_emplace(A);
    if (New)
      if (auto Writes = privateWrites(*A, UI, ReachedByAll)) {
        It->second.emplace();
        It->second->Writes = std::move(*Writes);
        for (const PrivateWrite &W : It->second->Writes)
          It->second->At[W.At] = &W;
      }
    if (!It->second)
      continue;
    const PrivateObject &O = *It->second;
    auto Read = bytesOf(L->getPointerOperand(), *A,
                        DL.getTypeStoreSize(L->getType()).getFixedValue(), DL);
    auto Overlaps = [&](const PrivateWrite &W) {
      return !Read || (W.Lo < Read->second && Read->first < W.Hi);
    };
    // Every write that may overlap the bytes the load reads is uniform, or
    // the last one before the load covers them and gives every thread that
    // runs it the same bytes (cub's `block_aggregate = temp_storage.x;`
    // after the thread-dependent writes of its raking threads).
    bool Uniform = llvm::all_of(O.Writes, [&](const PrivateWrite &W) {
      return W.Uniform || !Overlaps(W);
    });
    if (!Uniform && Read)
      if (const PrivateWrite *Last = lastWriteBefore(*L, O, Overlaps))
        Uniform = Last->Exact && Last->SameBytesWhereRun &&
                  Last->Lo <= Read->first && Read->second <= Last->Hi;
    if (Uniform) {
      L->setMetadata(PrivateUniformKind, MDNode::get(Ctx, {}));
      Changed = true;
    }
  }
  return Changed;
}

namespace {

class BlockUniformityTTI : public TargetTransformInfoImplBase {
public:
  BlockUniformityTTI(const DataLayout &DL, bool Grid)
      : TargetTransformInfoImplBase(DL), Grid(Grid) {}
  bool hasBranchDivergence(const Function *) const override { return true; }
  InstructionUniformity
  getInstructionUniformity(const Value *V) const override {
    return Grid ? gridUniformityOf(V) : blockUniformityOf(V);
  }

private:
  bool Grid;
};

// The block's position in the grid (or in its cluster): the same in every
// thread of a block, different between blocks.
bool isBlockPositionRegister(StringRef Name) {
  return Name.starts_with("ctaid.") || Name.starts_with("cluster.ctaid.") ||
         Name.starts_with("clusterid.") || Name == "cluster.ctarank" ||
         Name == "cluster.nctarank" || Name == "smid";
}

} // namespace

InstructionUniformity gridUniformityOf(const Value *V) {
  if (const auto *CB = dyn_cast<CallBase>(V)) {
    if (isBlockReduction(CB))
      return IU::NeverUniform; // one value per block
    if (const Function *F = CB->getCalledFunction()) {
      StringRef Name = F->getName();
      if (Name.consume_front("llvm.nvvm.read.ptx.sreg.") &&
          isBlockPositionRegister(Name))
        return IU::NeverUniform;
      // blockIdx as a dim3 (cooperative groups' block_rank, block_index):
      // clang's conversion operator of the built-in, when not inlined.
      if (Name.contains("__cuda_builtin_blockIdx_t"))
        return IU::NeverUniform;
    }
  }
  // Uniformity by value holds within a block: idx - tid still carries the
  // block's offset. A private copy of a block-uniform value may differ
  // between blocks.
  if (const auto *I = dyn_cast<Instruction>(V)) {
    if (I->getMetadata(UniformKind))
      return IU::Default;
    if (I->getMetadata(PrivateUniformKind))
      return IU::NeverUniform;
  }
  return blockUniformityOf(V);
}

InstructionUniformity blockUniformityOf(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    if (I->getMetadata(UniformKind) || I->getMetadata(PrivateUniformKind))
      return IU::AlwaysUniform;
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
        std::make_unique<BlockUniformityTTI>(F.getDataLayout(), false));
  });
}

TargetIRAnalysis gridUniformityTargetAnalysis() {
  return TargetIRAnalysis([](const Function &F) {
    return TargetTransformInfo(
        std::make_unique<BlockUniformityTTI>(F.getDataLayout(), true));
  });
}

} // namespace warplint::ir
