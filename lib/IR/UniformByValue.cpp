// Uniformity by value in the optimised IR: values computed from the thread
// index that are the same in every thread (DivergenceSources.h,
// markUniformByValue), the IR layer's mirror of the AST layer's ThreadPart.
#include "IR/DivergenceSources.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include <map>
#include <optional>
#include <string>

using namespace llvm;

namespace warplint::ir {

namespace {

// The thread-dependent part of an integer value: atoms (a %tid register, or
// an atom divided by a constant) with coefficients; the rest is uniform.
struct Part {
  std::map<std::string, int64_t> Atoms;
  bool RestNtidMultiple = true;
  bool RestXMultiple = true; // ... of ntid.x itself
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
    Into.RestXMultiple &= P.RestXMultiple;
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

bool isNtidX(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(resolve(V));
  return CB && CB->getCalledFunction() &&
         CB->getCalledFunction()->getName() == "llvm.nvvm.read.ptx.sreg.ntid.x";
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
  P.RestNtidMultiple = P.RestXMultiple = false;
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
    P.RestNtidMultiple = P.RestXMultiple = C->isZero();
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
      Out.RestXMultiple = DimName == "ntid.x";
      return Out;
    }
    Part Out;
    Out.RestNtidMultiple =
        LN || RN || L->RestNtidMultiple || R->RestNtidMultiple;
    Out.RestXMultiple = isNtidX(BO->getOperand(0)) ||
                        isNtidX(BO->getOperand(1)) || L->RestXMultiple ||
                        R->RestXMultiple;
    const Part &Var = L->Atoms.empty() ? *R : *L;
    if (!Var.Atoms.empty()) {
      const auto *C =
          dyn_cast<ConstantInt>(BO->getOperand(L->Atoms.empty() ? 0 : 1));
      if (!C)
        return std::nullopt;
      for (auto &[K, N] : Var.Atoms)
        Out.Atoms[K] = N * C->getSExtValue();
      Out.RestNtidMultiple = Var.RestNtidMultiple;
      Out.RestXMultiple = Var.RestXMultiple;
    }
    return Out;
  }
  // The block's own size cancels the thread index: with i = tid.x + k *
  // ntid.x (k >= 0), i / ntid.x is k and i % ntid.x is tid.x.
  if (BO && (BO->getOpcode() == Instruction::SDiv ||
             BO->getOpcode() == Instruction::UDiv ||
             BO->getOpcode() == Instruction::SRem ||
             BO->getOpcode() == Instruction::URem)) {
    if (isNtidX(BO->getOperand(1))) {
      auto L = of(BO->getOperand(0), At, Depth + 1);
      if (!L || !L->RestXMultiple || L->Atoms.size() != 1 ||
          L->Atoms.begin()->first != "tid.x" || L->Atoms.begin()->second != 1)
        return std::nullopt;
      Part Out;
      bool Rem = BO->getOpcode() == Instruction::SRem ||
                 BO->getOpcode() == Instruction::URem;
      if (Rem)
        Out.Atoms["tid.x"] = 1;
      Out.RestNtidMultiple = Out.RestXMultiple = Rem;
      return Out;
    }
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
      L->RestNtidMultiple = L->RestXMultiple = false;
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
    Out.RestNtidMultiple = Out.RestXMultiple = false;
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
    bool StepsNtid = true;
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
      // A step of ntid.x (or a multiple: ntid.x * nctaid.x) keeps the rest
      // a multiple of the block.
      auto StepPart = of(Other, At, Depth + 1);
      StepsNtid &=
          StepPart && StepPart->Atoms.empty() && StepPart->RestXMultiple;
    }
    if (Start)
      Start->RestNtidMultiple &= StepsNtid;
    Start->RestXMultiple &= StepsNtid;
    return Start;
  }
  // Anything else: uniform by the analysis, or unknown.
  if (UI.isDivergent(V))
    return std::nullopt;
  Part P;
  P.RestNtidMultiple = IsNtid;
  P.RestXMultiple = isNtidX(V);
  return P;
}

} // namespace

// `for (i = tid.x; i < N; i += S)` with S ntid.x or a constant, blockDim.x
// launched as X <= S and N a multiple of S: the compare of the loop's exit
// test.
// Whether V is a multiple of S whatever its other factors: a constant
// multiple, a product or shift with such a factor, a sum of multiples, a
// value rounded down by a mask (`(n + 127) & -128`, the optimiser's form of
// `128 * ((n + 127) / 128)`).
static bool multipleOf(const Value *V, uint64_t S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return false;
  V = resolve(V);
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return !C->isNegative() && C->getZExtValue() % S == 0;
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return false;
  const auto *K = dyn_cast<ConstantInt>(BO->getOperand(1));
  switch (BO->getOpcode()) {
  case Instruction::Mul:
    return multipleOf(BO->getOperand(0), S, Depth + 1) ||
           multipleOf(BO->getOperand(1), S, Depth + 1);
  case Instruction::Add:
    return multipleOf(BO->getOperand(0), S, Depth + 1) &&
           multipleOf(BO->getOperand(1), S, Depth + 1);
  case Instruction::Shl:
    return (K && K->getZExtValue() < 63 &&
            (uint64_t(1) << K->getZExtValue()) % S == 0) ||
           multipleOf(BO->getOperand(0), S, Depth + 1);
  case Instruction::And:
    return (K && isPowerOf2_64(S) && (K->getZExtValue() & (S - 1)) == 0) ||
           multipleOf(BO->getOperand(0), S, Depth + 1);
  default:
    return false;
  }
}

static bool blockStrideExit(const ICmpInst *Cmp, const UniformityInfo &UI,
                            const LoopInfo &LI, unsigned X) {
  if (!X || (Cmp->getPredicate() != ICmpInst::ICMP_SLT &&
             Cmp->getPredicate() != ICmpInst::ICMP_ULT))
    return false;
  const Value *N = Cmp->getOperand(1);
  const auto *Phi = dyn_cast<PHINode>(resolve(Cmp->getOperand(0)));
  if (!Phi || Phi->getNumIncomingValues() != 2 ||
      (!isa<Constant>(N) && UI.isDivergent(N)))
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
  // (N padded to the stride at run time is a multiple all the same.)
  return StartsAtTid && Stride >= X && multipleOf(N, Stride);
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

// `i < P` (any order, signed or not, or its negation) with i = tid.x + k *
// ntid.x and P = m * ntid.x: it holds exactly when k < m, in every thread
// (a bound padded to the block, `ntid * ((n + ntid - 1) / ntid)`).
static bool blockPaddedCompare(const ICmpInst &Cmp,
                               const std::optional<Part> &L,
                               const std::optional<Part> &R) {
  auto IsIndex = [](const std::optional<Part> &P) {
    return P && P->RestXMultiple && P->Atoms.size() == 1 &&
           P->Atoms.begin()->first == "tid.x" && P->Atoms.begin()->second == 1;
  };
  auto IsBound = [](const std::optional<Part> &P) {
    return P && P->RestXMultiple && P->Atoms.empty();
  };
  switch (Cmp.getPredicate()) {
  case ICmpInst::ICMP_SLT:
  case ICmpInst::ICMP_ULT:
  case ICmpInst::ICMP_SGE:
  case ICmpInst::ICMP_UGE:
    return IsIndex(L) && IsBound(R);
  case ICmpInst::ICMP_SGT:
  case ICmpInst::ICMP_UGT:
  case ICmpInst::ICMP_SLE:
  case ICmpInst::ICMP_ULE:
    return IsBound(L) && IsIndex(R);
  default:
    return false;
  }
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
          Cmp && UI.isDivergent(Cmp) &&
          blockStrideExit(Cmp, UI, LI, BlockDimX)) {
        Cmp->setMetadata(UniformKind, MDNode::get(Ctx, {}));
        Changed = true;
        continue;
      }
      // The same thread part on both sides (`t < end + tid` with `t` from
      // `start + tid` stepping uniformly): the compare is of the rests.
      if (auto *Cmp = dyn_cast<ICmpInst>(&I); Cmp && UI.isDivergent(Cmp)) {
        auto L = Finder.of(Cmp->getOperand(0), Cmp);
        auto R = Finder.of(Cmp->getOperand(1), Cmp);
        if ((L && R && !L->Atoms.empty() && L->Atoms == R->Atoms) ||
            blockPaddedCompare(*Cmp, L, R)) {
          Cmp->setMetadata(UniformKind, MDNode::get(Ctx, {}));
          Changed = true;
        }
        continue;
      }
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || !BO->getType()->isIntegerTy() || !UI.isDivergent(BO) ||
          (BO->getOpcode() != Instruction::Sub &&
           BO->getOpcode() != Instruction::SDiv &&
           BO->getOpcode() != Instruction::UDiv))
        continue;
      auto P = Finder.of(BO, BO);
      if (P && P->Atoms.empty()) {
        BO->setMetadata(UniformKind, MDNode::get(Ctx, {}));
        Changed = true;
      }
    }
  return Changed;
}

} // namespace warplint::ir
