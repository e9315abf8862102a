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

// Whether a function with a body (or one it calls, a few levels deep) reads
// a thread-varying source: its result, when it is not inlined, can differ
// between threads although its arguments do not (clang's threadIdx.x
// accessor, left out of a kernel too large for the inliner's budget).
bool readsThreadSource(const Function &F, unsigned Depth = 0) {
  if (Depth > 3 || F.isDeclaration())
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
        return true;
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
        if (!CB->getType()->isVoidTy() && isThreadSourceAsm(*IA))
          return true;
        continue;
      }
      const Function *G = CB->getCalledFunction();
      if (!G)
        return true;
      if (G->isIntrinsic()) {
        if (intrinsicUniformity(G->getName()) == IU::NeverUniform)
          return true;
        continue;
      }
      if ((G->isDeclaration() && !isKnownPure(*G)) ||
          readsThreadSource(*G, Depth + 1))
        return true;
    }
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
  if (!CB.getType()->isVoidTy() && readsThreadSource(*Callee))
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

// A load from private memory that every thread wrote with the same value.
constexpr StringLiteral PrivateUniformKind = "warplint.uniform.private";

} // namespace

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
