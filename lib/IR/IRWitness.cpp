#include "IR/IRWitness.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace warplint::ir {

namespace {

// Threads tried for a witness: a block holds at most 1024.
constexpr unsigned MaxThreads = 1024;

// The thread an instruction is computed for.
struct ThreadAt {
  unsigned Tid;       // linear id in a 1-D block
  unsigned BlockDimX; // 0: not known
  bool *Block0;       // set when the block's position is read
  // Inputs chosen for the witness: every integer argument of the function
  // has this value, and the grid is one block.
  std::optional<int64_t> Inputs = std::nullopt;
  // Per argument, the constant every launch passes for it (a fact, used in
  // every run).
  const std::vector<std::optional<int64_t>> *Launched = nullptr;
};

using OperandFn = llvm::function_ref<std::optional<APInt>(const Value *)>;

std::optional<APInt> sreg(const IntrinsicInst &II, const ThreadAt &T) {
  unsigned W = II.getType()->getIntegerBitWidth();
  auto Of = [&](uint64_t X) { return std::optional<APInt>(APInt(W, X)); };
  switch (II.getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return Of(T.Tid);
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return Of(0);
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
    return Of(T.Tid % 32);
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    return Of(32);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return T.BlockDimX ? Of(T.BlockDimX) : std::nullopt;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return T.BlockDimX ? Of(1) : std::nullopt;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    *T.Block0 = true;
    return Of(0);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return T.Inputs ? Of(1) : std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<APInt> binary(unsigned Opcode, const std::optional<APInt> &L,
                            const std::optional<APInt> &R, unsigned Width) {
  // A product or a mask with a known zero is zero.
  if ((Opcode == Instruction::Mul || Opcode == Instruction::And) &&
      ((L && L->isZero()) || (R && R->isZero())))
    return APInt::getZero(Width);
  if (!L || !R)
    return std::nullopt;
  switch (Opcode) {
  case Instruction::Add:
    return *L + *R;
  case Instruction::Sub:
    return *L - *R;
  case Instruction::Mul:
    return *L * *R;
  case Instruction::And:
    return *L & *R;
  case Instruction::Or:
    return *L | *R;
  case Instruction::Xor:
    return *L ^ *R;
  case Instruction::Shl:
    return R->uge(Width) ? std::nullopt : std::optional<APInt>(L->shl(*R));
  case Instruction::LShr:
    return R->uge(Width) ? std::nullopt : std::optional<APInt>(L->lshr(*R));
  case Instruction::AShr:
    return R->uge(Width) ? std::nullopt : std::optional<APInt>(L->ashr(*R));
  case Instruction::UDiv:
    return R->isZero() ? std::nullopt : std::optional<APInt>(L->udiv(*R));
  case Instruction::URem:
    return R->isZero() ? std::nullopt : std::optional<APInt>(L->urem(*R));
  case Instruction::SDiv:
    return R->isZero() ? std::nullopt : std::optional<APInt>(L->sdiv(*R));
  case Instruction::SRem:
    return R->isZero() ? std::nullopt : std::optional<APInt>(L->srem(*R));
  default:
    return std::nullopt;
  }
}

// The integer value of I (not a phi) in thread T from its operands' values:
// the thread index, the launched blockDim.x, block 0's position, constants,
// integer arithmetic, comparisons, selects and casts.
std::optional<APInt> apply(const Instruction &I, const ThreadAt &T,
                           OperandFn Op) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return sreg(*II, T);
  if (const auto *Fr = dyn_cast<FreezeInst>(&I))
    return Op(Fr->getOperand(0));
  // A field of a small struct built in registers (a dim3 that SROA split
  // into insertvalues): the value inserted at the same indices.
  if (const auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    const Value *Agg = EV->getAggregateOperand();
    for (unsigned N = 0; N < 64; ++N) {
      const auto *IV = dyn_cast<InsertValueInst>(Agg);
      if (!IV)
        return std::nullopt;
      if (IV->getIndices() == EV->getIndices())
        return Op(IV->getInsertedValueOperand());
      Agg = IV->getAggregateOperand();
    }
    return std::nullopt;
  }
  if (const auto *Cast = dyn_cast<CastInst>(&I)) {
    if (!Cast->getType()->isIntegerTy() ||
        !Cast->getOperand(0)->getType()->isIntegerTy())
      return std::nullopt;
    auto X = Op(Cast->getOperand(0));
    if (!X)
      return std::nullopt;
    unsigned W = Cast->getType()->getIntegerBitWidth();
    switch (Cast->getOpcode()) {
    case Instruction::ZExt:
      return X->zext(W);
    case Instruction::SExt:
      return X->sext(W);
    case Instruction::Trunc:
      return X->trunc(W);
    default:
      return std::nullopt;
    }
  }
  if (const auto *Cmp = dyn_cast<ICmpInst>(&I)) {
    auto L = Op(Cmp->getOperand(0));
    auto R = L ? Op(Cmp->getOperand(1)) : std::nullopt;
    if (!L || !R)
      return std::nullopt;
    return APInt(1, ICmpInst::compare(*L, *R, Cmp->getPredicate()));
  }
  if (const auto *Sel = dyn_cast<SelectInst>(&I)) {
    auto C = Op(Sel->getCondition());
    if (!C)
      return std::nullopt;
    return Op(C->isOne() ? Sel->getTrueValue() : Sel->getFalseValue());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(&I);
      BO && BO->getType()->isIntegerTy())
    return binary(BO->getOpcode(), Op(BO->getOperand(0)), Op(BO->getOperand(1)),
                  BO->getType()->getIntegerBitWidth());
  return std::nullopt;
}

// The integer values of one thread, computed from what it is computed
// from; a loop's header values as they enter it (the first round of the
// loops around At).
class LaneValues {
public:
  LaneValues(const LoopInfo &LI, const BasicBlock &At, unsigned BlockDimX)
      : LI(LI), At(At), BlockDimX(BlockDimX) {}

  std::optional<APInt> eval(const Value *V, unsigned Tid) {
    if (Tid != Current) {
      Memo.clear();
      Current = Tid;
    }
    return get(V, 0);
  }

  bool firstRound() const { return FirstRound; }
  bool block0() const { return Block0; }

private:
  static constexpr unsigned MaxDepth = 24;

  std::optional<APInt> get(const Value *V, unsigned Depth) {
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue();
    if (auto It = Memo.find(V); It != Memo.end())
      return It->second;
    std::optional<APInt> R;
    if (Depth <= MaxDepth) {
      if (const auto *Phi = dyn_cast<PHINode>(V))
        R = phi(*Phi, Depth);
      else if (const auto *I = dyn_cast<Instruction>(V))
        R = apply(*I, ThreadAt{Current, BlockDimX, &Block0},
                  [&](const Value *O) { return get(O, Depth + 1); });
    }
    Memo[V] = R;
    return R;
  }

  // A loop header's value as the loop is entered, for a loop around At (its
  // first round); a join's when every way in gives the same.
  std::optional<APInt> phi(const PHINode &Phi, unsigned Depth) {
    const BasicBlock *BB = Phi.getParent();
    if (const Loop *L = LI.getLoopFor(BB);
        L && L->getHeader() == BB && L->contains(&At)) {
      const Value *In = nullptr;
      for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I)
        if (!L->contains(Phi.getIncomingBlock(I))) {
          if (In && In != Phi.getIncomingValue(I))
            return std::nullopt;
          In = Phi.getIncomingValue(I);
        }
      if (!In)
        return std::nullopt;
      FirstRound = true;
      return get(In, Depth + 1);
    }
    std::optional<APInt> Same;
    for (const Value *In : Phi.incoming_values()) {
      auto X = get(In, Depth + 1);
      if (!X || (Same && *Same != *X))
        return std::nullopt;
      Same = X;
    }
    return Same;
  }

  const LoopInfo &LI;
  const BasicBlock &At;
  unsigned BlockDimX;
  unsigned Current = ~0u;
  llvm::DenseMap<const Value *, std::optional<APInt>> Memo;
  bool FirstRound = false, Block0 = false;
};

// One thread run through F from its entry, with every value warplint can
// compute (apply()) and the others unknown: how often it arrives at the
// barrier, and the ways it took at each branch, until it returns, or meets
// a branch on an unknown value, or runs out of steps.
struct Run {
  bool Complete = false;
  unsigned Arrivals = 0;
  struct Decision {
    const Instruction *Branch;
    unsigned Way;
    APInt Value;
  };
  std::vector<Decision> Decisions;
};

Run runThread(const Function &F, const CallBase &Barrier, const ThreadAt &T,
              unsigned &Steps) {
  Run Out;
  llvm::DenseMap<const Value *, APInt> Values, Private;
  auto Known = [&](const Value *V) -> std::optional<APInt> {
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue();
    if (auto It = Values.find(V); It != Values.end())
      return It->second;
    if (const auto *A = dyn_cast<Argument>(V);
        A && A->getType()->isIntegerTy()) {
      std::optional<int64_t> X = T.Inputs;
      if (T.Launched && A->getArgNo() < T.Launched->size() &&
          (*T.Launched)[A->getArgNo()])
        X = (*T.Launched)[A->getArgNo()];
      if (X)
        return APInt(A->getType()->getIntegerBitWidth(), *X,
                     /*isSigned=*/true);
    }
    return std::nullopt;
  };
  auto Set = [&](const Value *V, std::optional<APInt> X) {
    if (X)
      Values.insert_or_assign(V, *X);
    else
      Values.erase(V);
  };
  const BasicBlock *BB = &F.getEntryBlock(), *Prev = nullptr;
  SmallVector<std::pair<const PHINode *, std::optional<APInt>>, 8> Phis;
  while (Steps) {
    Phis.clear();
    for (const PHINode &Phi : BB->phis())
      Phis.push_back({&Phi, Prev ? Known(Phi.getIncomingValueForBlock(Prev))
                                 : std::nullopt});
    for (auto &[Phi, X] : Phis)
      Set(Phi, X);
    const Instruction *Term = BB->getTerminator();
    for (const Instruction &I : *BB) {
      if (isa<PHINode>(I) || &I == Term)
        continue;
      --Steps;
      if (&I == &Barrier)
        ++Out.Arrivals;
      // The thread's own memory (a local SROA left in an alloca), by the
      // pointer stored through; a call given a pointer may change any of it.
      if (const auto *St = dyn_cast<StoreInst>(&I)) {
        const Value *Ptr = St->getPointerOperand()->stripPointerCasts();
        if (isa<AllocaInst>(getUnderlyingObject(Ptr))) {
          auto X = St->getValueOperand()->getType()->isIntegerTy()
                       ? Known(St->getValueOperand())
                       : std::nullopt;
          if (X)
            Private.insert_or_assign(Ptr, *X);
          else
            Private.erase(Ptr);
        }
        continue;
      }
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (llvm::any_of(CB->args(), [](const Value *A) {
              return A->getType()->isPointerTy();
            }))
          Private.clear();
      if (const auto *Ld = dyn_cast<LoadInst>(&I)) {
        auto It = Private.find(Ld->getPointerOperand()->stripPointerCasts());
        bool Same = It != Private.end() &&
                    Ld->getType()->isIntegerTy(It->second.getBitWidth());
        Set(&I, Same ? std::optional<APInt>(It->second) : std::nullopt);
        continue;
      }
      if (I.getType()->isIntegerTy())
        Set(&I, apply(I, T, Known));
    }
    if (isa<ReturnInst, UnreachableInst>(Term)) {
      Out.Complete = true;
      return Out;
    }
    const BasicBlock *Next = nullptr;
    if (const auto *Br = dyn_cast<BranchInst>(Term)) {
      if (!Br->isConditional()) {
        Next = Br->getSuccessor(0);
      } else if (auto C = Known(Br->getCondition())) {
        unsigned Way = C->isOne() ? 0 : 1;
        Out.Decisions.push_back({Term, Way, *C});
        Next = Br->getSuccessor(Way);
      }
    } else if (const auto *Sw = dyn_cast<SwitchInst>(Term)) {
      if (auto C = Known(Sw->getCondition())) {
        unsigned Way = 0;
        for (const auto &Case : Sw->cases())
          if (Case.getCaseValue()->getValue() == *C)
            Way = Case.getSuccessorIndex();
        Out.Decisions.push_back({Term, Way, *C});
        Next = Sw->getSuccessor(Way);
      }
    }
    if (!Next)
      return Out; // a branch on an unknown value
    Prev = BB;
    BB = Next;
  }
  return Out;
}

// The block of a run with chosen inputs when no launch gives one: two warps.
constexpr unsigned AssumedBlock = 64;
// The values tried for the integer arguments, all at once: small sizes that
// fall inside a block, a warp and past it.
constexpr int64_t InputValues[] = {1, 3, 17, 33, 100};

// Steps of all threads' runs together: a run is cheap, a kernel with long
// constant loops is not (they give up and try the other witnesses).
constexpr unsigned RunSteps = 400000;
constexpr unsigned RunStepsPerThread = 20000;

// Two threads whose complete runs arrive at the barrier a different number
// of times, and the branch where they first part.
// With Inputs, every integer argument has that value, the grid is one
// block and the block, when no launch gives it, has AssumedBlock threads.
std::optional<IRWitness> byRuns(const Function &F, const CallBase &Barrier,
                                unsigned BlockDimX,
                                const std::vector<std::optional<int64_t>> &Args,
                                std::optional<int64_t> Inputs = std::nullopt,
                                unsigned *Budget = nullptr) {
  bool Assumed = Inputs && !BlockDimX;
  if (Assumed)
    BlockDimX = AssumedBlock;
  unsigned Threads = BlockDimX ? std::min(BlockDimX, MaxThreads) : MaxThreads;
  unsigned Own = RunSteps;
  unsigned &Total = Budget ? *Budget : Own;
  bool Block0 = false;
  auto RunOf = [&](unsigned Tid) {
    unsigned Steps = std::min(Total, RunStepsPerThread);
    unsigned Before = Steps;
    Run R = runThread(F, Barrier,
                      ThreadAt{Tid, BlockDimX, &Block0, Inputs, &Args}, Steps);
    Total -= Before - Steps;
    return R;
  };
  Run Zero = RunOf(0);
  if (!Zero.Complete)
    return std::nullopt;
  for (unsigned T = 1; T < Threads && Total > 0; ++T) {
    Run Other = RunOf(T);
    if (!Other.Complete || Other.Arrivals == Zero.Arrivals)
      continue;
    bool ZeroMore = Zero.Arrivals > Other.Arrivals;
    const Run &More = ZeroMore ? Zero : Other;
    const Run &Fewer = ZeroMore ? Other : Zero;
    size_t I = 0;
    while (I < More.Decisions.size() && I < Fewer.Decisions.size() &&
           More.Decisions[I].Branch == Fewer.Decisions[I].Branch &&
           More.Decisions[I].Way == Fewer.Decisions[I].Way)
      ++I;
    if (I >= More.Decisions.size() || I >= Fewer.Decisions.size() ||
        More.Decisions[I].Branch != Fewer.Decisions[I].Branch)
      continue;
    IRWitness Out;
    Out.K = IRWitness::Kind::Lanes;
    Out.Branch = More.Decisions[I].Branch;
    Out.Switch = isa<SwitchInst>(Out.Branch);
    Out.First = ZeroMore ? 0 : T;
    Out.Second = ZeroMore ? T : 0;
    Out.FirstReaches = true;
    Out.FirstArrivals = More.Arrivals;
    Out.SecondArrivals = Fewer.Arrivals;
    auto ValueOf = [&](const APInt &V) {
      return Out.Switch ? V.getSExtValue() : int64_t(V.getZExtValue());
    };
    Out.FirstValue = ValueOf(More.Decisions[I].Value);
    Out.SecondValue = ValueOf(Fewer.Decisions[I].Value);
    // The round of the loop where they part: how often the branch ran
    // before in the same run.
    for (size_t J = 0; J < I; ++J)
      Out.PartRound += More.Decisions[J].Branch == Out.Branch;
    Out.BlockDimX = Assumed ? 0 : BlockDimX;
    Out.AssumedBlock = Assumed ? BlockDimX : 0;
    Out.Inputs = Inputs;
    Out.LaunchedArguments =
        llvm::any_of(Args, [](const auto &A) { return A.has_value(); });
    Out.Block0 = Block0;
    return Out;
  }
  return std::nullopt;
}

// Whether To is reachable from From without passing through Avoid.
bool reaches(const BasicBlock *From, const BasicBlock *To,
             const BasicBlock *Avoid) {
  SmallVector<const BasicBlock *, 16> Work = {From};
  SmallPtrSet<const BasicBlock *, 32> Seen = {Avoid};
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == To)
      return true;
    if (!Seen.insert(B).second)
      continue;
    for (const BasicBlock *S : successors(B))
      Work.push_back(S);
  }
  return false;
}

// A read, an atomic or a call result that gives each thread its own value,
// among what V is computed from.
// Warp: set when the value passes through a warp collective (a vote, a
// shuffle, a match, a reduction), which is the same in the lanes of a warp.
const Instruction *perThreadSource(const Value *V, const UniformityInfo &UI,
                                   bool &Warp) {
  SmallVector<const Value *, 16> Work = {V};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    const auto *I = dyn_cast<Instruction>(X);
    if (!I || !UI.isDivergent(I))
      continue;
    if (const auto *Ld = dyn_cast<LoadInst>(I)) {
      if (UI.isDivergent(Ld->getPointerOperand()))
        return Ld;
      continue;
    }
    if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
      return I;
    if (const auto *CB = dyn_cast<CallBase>(I)) {
      // A source of its own (a clock, a shuffle, a vote, an opaque call,
      // inline asm), not the thread's index: that one the runs evaluate.
      const auto *II = dyn_cast<IntrinsicInst>(CB);
      if (II) {
        StringRef Name = II->getCalledFunction()->getName();
        for (StringRef Collective : {"vote", "shfl", "match", "redux"})
          if (Name.starts_with("llvm.nvvm.") && Name.contains(Collective))
            Warp = true;
      }
      bool Index =
          II && II->getIntrinsicID() >= Intrinsic::nvvm_read_ptx_sreg_tid_x &&
          II->getIntrinsicID() <= Intrinsic::nvvm_read_ptx_sreg_tid_z;
      if (!Index && llvm::none_of(CB->args(), [&](const Value *A) {
            return UI.isDivergent(A);
          }))
        return CB;
      for (const Value *Arg : CB->args())
        Work.push_back(Arg);
      continue;
    }
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return nullptr;
}

// The outermost branch of the chain of divergent branches from Branch
// outwards; in a loop the chain comes back round to a branch already seen,
// and the last one before it is reached by every thread in the first round.
const Instruction *outermost(const Instruction &Branch,
                             const PartialReach &Reach) {
  const Instruction *W = &Branch;
  SmallPtrSet<const Instruction *, 8> Seen = {W};
  while (const Instruction *O = Reach.splittingBranch(W->getParent())) {
    if (!Seen.insert(O).second)
      break;
    W = O;
  }
  return W;
}

} // namespace

std::optional<IRWitness>
findIRWitness(const CallBase &Point, const Instruction &Branch,
              const PartialReach &Reach, const UniformityInfo &UI,
              const LoopInfo &LI, unsigned BlockDimX,
              const std::vector<std::optional<int64_t>> &Args) {
  const BasicBlock &Barrier = *Point.getParent();
  // Two threads run to the end that arrive a different number of times.
  if (auto Out = byRuns(*Point.getFunction(), Point, BlockDimX, Args))
    return Out;
  const Instruction *W = outermost(Branch, Reach);
  const auto *Br = dyn_cast<BranchInst>(W);
  const auto *Sw = dyn_cast<SwitchInst>(W);
  if ((!Br || !Br->isConditional()) && !Sw)
    return std::nullopt;
  const Value *Cond = Br ? Br->getCondition() : Sw->getCondition();
  IRWitness Out;
  Out.Branch = W;
  Out.BlockDimX = BlockDimX;
  Out.Switch = Sw != nullptr;
  const BasicBlock *At = W->getParent();
  unsigned Threads = BlockDimX ? std::min(BlockDimX, MaxThreads) : MaxThreads;

  // Lanes: the condition itself, thread by thread, and the way each thread
  // takes; a thread whose way leads to the barrier beside one whose way
  // does not, else two that take different ways.
  SmallVector<std::optional<bool>, 4> Leads(W->getNumSuccessors());
  auto LeadsToBarrier = [&](unsigned S) {
    if (!Leads[S])
      Leads[S] = reaches(W->getSuccessor(S), &Barrier, At);
    return *Leads[S];
  };
  auto WayOf = [&](const APInt &V) -> unsigned {
    if (Br)
      return V.isOne() ? 0 : 1;
    for (const auto &Case : Sw->cases())
      if (Case.getCaseValue()->getValue() == V)
        return Case.getSuccessorIndex();
    return 0; // the default
  };
  LaneValues Lanes(LI, *At, BlockDimX);
  struct Seen {
    int64_t Tid;
    APInt Value;
    unsigned Way;
  };
  std::optional<Seen> Reaching, Missing, FirstSeen, OtherWay;
  for (unsigned T = 0; T < Threads && !(Reaching && Missing); ++T) {
    auto V = Lanes.eval(Cond, T);
    if (!V)
      continue;
    Seen S{T, *V, WayOf(*V)};
    (LeadsToBarrier(S.Way) ? Reaching : Missing) =
        (LeadsToBarrier(S.Way) ? Reaching : Missing).value_or(S);
    if (!FirstSeen)
      FirstSeen = S;
    else if (!OtherWay && S.Way != FirstSeen->Way)
      OtherWay = S;
  }
  std::optional<Seen> A = Reaching && Missing ? Reaching : FirstSeen;
  std::optional<Seen> B = Reaching && Missing ? Missing : OtherWay;
  if (A && B) {
    Out.K = IRWitness::Kind::Lanes;
    Out.FirstReaches = Reaching && Missing;
    Out.First = A->Tid;
    Out.Second = B->Tid;
    bool Signed = Sw != nullptr;
    Out.FirstValue = Signed ? A->Value.getSExtValue() : A->Value.getZExtValue();
    Out.SecondValue =
        Signed ? B->Value.getSExtValue() : B->Value.getZExtValue();
    Out.FirstRound = Lanes.firstRound();
    Out.Block0 = Lanes.block0();
    return Out;
  }

  // Runs again with chosen inputs: the integer arguments, and a grid of one
  // block (of the launched size, or two warps).
  if (llvm::any_of(
          Point.getFunction()->args(),
          [](const Argument &A) { return A.getType()->isIntegerTy(); }) ||
      !BlockDimX) {
    unsigned Budget = RunSteps;
    for (int64_t V : InputValues)
      if (auto Out =
              byRuns(*Point.getFunction(), Point, BlockDimX, Args, V, &Budget))
        return Out;
  }

  // Bound: a per-thread value against a uniform one not known here.
  if (const auto *Cmp = dyn_cast_or_null<ICmpInst>(Br ? Cond : nullptr))
    for (unsigned Side = 0; Side < 2; ++Side) {
      const Value *Mine = Cmp->getOperand(Side);
      const Value *Bound = Cmp->getOperand(1 - Side);
      if (UI.isDivergent(Bound))
        continue;
      LaneValues Values(LI, *At, BlockDimX);
      if (Values.eval(Bound, 0))
        continue;
      // A pointer: its per-thread offset from a block-uniform base
      // (`first + tid < last`).
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(Mine);
          GEP && GEP->getNumIndices() == 1 &&
          !UI.isDivergent(GEP->getPointerOperand()))
        Mine = GEP->idx_begin()->get();
      auto First = Values.eval(Mine, 0);
      if (!First)
        continue;
      for (unsigned T = 1; T < Threads; ++T)
        if (auto X = Values.eval(Mine, T); X && *X != *First) {
          Out.K = IRWitness::Kind::Bound;
          Out.First = 0;
          Out.Second = T;
          Out.FirstRound = Values.firstRound();
          Out.Block0 = Values.block0();
          return Out;
        }
    }

  // Data: a value each thread reads for itself.
  bool Warp = false;
  if (const Instruction *Source = perThreadSource(Cond, UI, Warp)) {
    Out.K = IRWitness::Kind::Data;
    Out.Source = Source;
    Out.First = 0;
    Out.Second = Warp ? 32 : 1;
    return Out;
  }
  return std::nullopt;
}

} // namespace warplint::ir
