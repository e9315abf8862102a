#include "IR/OptimisedAccesses.h"
#include "IR/AlignedAA.h"
#include "IR/DebugSource.h"
#include "IR/DivergenceSources.h"
#include "IR/Pieces.h"
#include "IR/Prepare.h"
#include "IR/Ptx.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

using namespace llvm;

namespace warplint::ir {

namespace {

// A load or store of memory that outlives the function (not a local).
bool isMemoryAccess(const Instruction &I) {
  const Value *Ptr = getLoadStorePointerOperand(&I);
  return Ptr && !isa<AllocaInst>(getUnderlyingObject(Ptr));
}

// "file:line": how lines and definitions are known.
std::string lineKey(StringRef File, unsigned Line) {
  return (File + ":" + Twine(Line)).str();
}
std::string definitionKey(const DISubprogram &SP) {
  return lineKey(pathOf(SP.getFile()), SP.getLine());
}

std::optional<SourcePos> positionOf(const Instruction &I) {
  const DILocation *L = I.getDebugLoc().get();
  if (!L || !L->getLine())
    return std::nullopt;
  return SourcePos{pathOf(L->getFile()), L->getLine(), L->getColumn()};
}

// Double-precision work: arithmetic, a comparison or a conversion with a
// double operand or result, or a call of a math function (an intrinsic,
// libdevice's __nv_*, a declaration) that takes or returns double. Loads,
// stores, phis, selects and bit casts move doubles without the FP64 unit.
bool isFp64(const Instruction &I) {
  auto IsDouble = [](const Type *T) {
    return T->getScalarType()->isDoubleTy();
  };
  auto Touches = [&] {
    return IsDouble(I.getType()) || any_of(I.operands(), [&](const Use &U) {
             return IsDouble(U->getType());
           });
  };
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (isa<DbgInfoIntrinsic>(I))
      return false;
    const Function *Callee = Call->getCalledFunction();
    return Callee && Callee->isDeclaration() && Touches();
  }
  if (const auto *Cast = dyn_cast<CastInst>(&I))
    return Cast->getOpcode() != Instruction::BitCast && Touches();
  if (isa<BinaryOperator, UnaryOperator, FCmpInst>(I))
    return Touches();
  return false;
}

// nvcc links libdevice in, and its double exp, sqrt, fmin, floor... are the
// LLVM intrinsics' arithmetic: -O3 folds them on constants and narrows
// floor/fabs/fmin of a widened float back to float. Declared here, they
// would stay calls. Each becomes its intrinsic, so that the optimised view
// of FP64 work is nvcc's; pow is left a call: nvcc calls it even for
// constant arguments.
void libdeviceAsIntrinsics(Module &M) {
  static const std::pair<const char *, Intrinsic::ID> Map[] = {
      {"__nv_exp", Intrinsic::exp},
      {"__nv_exp2", Intrinsic::exp2},
      {"__nv_log", Intrinsic::log},
      {"__nv_log2", Intrinsic::log2},
      {"__nv_log10", Intrinsic::log10},
      {"__nv_sqrt", Intrinsic::sqrt},
      {"__nv_fabs", Intrinsic::fabs},
      {"__nv_fmin", Intrinsic::minnum},
      {"__nv_fmax", Intrinsic::maxnum},
      {"__nv_floor", Intrinsic::floor},
      {"__nv_ceil", Intrinsic::ceil},
      {"__nv_trunc", Intrinsic::trunc},
      {"__nv_round", Intrinsic::round},
      {"__nv_rint", Intrinsic::rint},
      {"__nv_nearbyint", Intrinsic::nearbyint},
      {"__nv_copysign", Intrinsic::copysign},
      {"__nv_fma", Intrinsic::fma},
      {"__nv_sin", Intrinsic::sin},
      {"__nv_cos", Intrinsic::cos}};
  Type *Double = Type::getDoubleTy(M.getContext());
  for (auto [Name, ID] : Map) {
    Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration() || F->getReturnType() != Double ||
        any_of(F->args(),
               [&](const Argument &A) { return A.getType() != Double; }))
      continue;
    Function *Intr = Intrinsic::getOrInsertDeclaration(&M, ID, {Double});
    if (Intr->getFunctionType() != F->getFunctionType())
      continue;
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      SmallVector<Value *, 3> Args(Call->args());
      CallInst *New = CallInst::Create(Intr, Args, "", Call->getIterator());
      New->setDebugLoc(Call->getDebugLoc());
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
    }
  }
}

unsigned bytesOf(const Instruction &I) {
  return unsigned(I.getModule()->getDataLayout().getTypeStoreSize(
      getLoadStoreType(const_cast<Instruction *>(&I))));
}

// The sides of a copy of a known size that are in memory the checks judge
// (not a local's): an aggregate read or written whole (a float2 passed by
// value, a struct assigned) is a memcpy at -O0, carrying the position of
// the access it stands for, and becomes loads and stores under -O3.
struct CopySide {
  bool IsStore;
  unsigned Bytes;
};
SmallVector<CopySide, 2> copySides(const Instruction &I) {
  SmallVector<CopySide, 2> Out;
  const auto *MT = dyn_cast<MemTransferInst>(&I);
  const auto *Len = MT ? dyn_cast<ConstantInt>(MT->getLength()) : nullptr;
  if (!Len || Len->isZero() || Len->getZExtValue() > 1024)
    return Out;
  unsigned Bytes = unsigned(Len->getZExtValue());
  if (!isa<AllocaInst>(getUnderlyingObject(MT->getRawSource())))
    Out.push_back({false, Bytes});
  if (!isa<AllocaInst>(getUnderlyingObject(MT->getRawDest())))
    Out.push_back({true, Bytes});
  return Out;
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

// The address of an access as a linear function of the thread index, from
// its scalar evolution: Coef[t] bytes per unit of threadIdx.x/.y/.z and
// %laneid, the rest uniform across the warp.
class LaneLinear {
public:
  LaneLinear(ScalarEvolution &SE, UniformityInfo &UI) : SE(SE), UI(UI) {}

  // Whether S is Coef . t + (uniform): adds Scale times its coefficients.
  bool add(const SCEV *S, int64_t Scale, int64_t (&Coef)[4]) {
    if (std::llabs(Scale) > (int64_t(1) << 40))
      return false;
    if (isa<SCEVConstant>(S) || !dependsOnThread(S))
      return true;
    if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
      int T = threadTerm(U->getValue());
      if (T < 0)
        return false;
      Coef[T] += Scale;
      return true;
    }
    if (const auto *C = dyn_cast<SCEVCastExpr>(S)) // assumed not to wrap
      return add(C->getOperand(), Scale, Coef);
    if (const auto *A = dyn_cast<SCEVAddExpr>(S)) {
      for (const SCEV *Op : A->operands())
        if (!add(Op, Scale, Coef))
          return false;
      return true;
    }
    if (const auto *M = dyn_cast<SCEVMulExpr>(S)) {
      // A constant times one thread-dependent factor.
      int64_t K = 1;
      const SCEV *Varying = nullptr;
      for (const SCEV *Op : M->operands()) {
        if (const auto *C = dyn_cast<SCEVConstant>(Op)) {
          if (C->getAPInt().getSignificantBits() > 40)
            return false;
          K *= C->getAPInt().getSExtValue();
        } else if (dependsOnThread(Op)) {
          if (Varying)
            return false;
          Varying = Op;
        } else {
          return false; // a run-time factor: the spacing is unknown
        }
      }
      return Varying && add(Varying, Scale * K, Coef);
    }
    if (const auto *R = dyn_cast<SCEVAddRecExpr>(S)) {
      // Lanes run a loop's iterations together: the iteration is uniform
      // among the active lanes, the step must be too.
      if (!R->isAffine() || dependsOnThread(R->getStepRecurrence(SE)))
        return false;
      return add(R->getStart(), Scale, Coef);
    }
    return false;
  }

  bool dependsOnThread(const SCEV *S) const {
    return SCEVExprContains(S, [&](const SCEV *X) {
      const auto *U = dyn_cast<SCEVUnknown>(X);
      return U && UI.isDivergent(U->getValue());
    });
  }

  static int threadTerm(const Value *V) {
    const auto *II = dyn_cast<IntrinsicInst>(V);
    if (!II)
      return -1;
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
      return 0;
    case Intrinsic::nvvm_read_ptx_sreg_tid_y:
      return 1;
    case Intrinsic::nvvm_read_ptx_sreg_tid_z:
      return 2;
    case Intrinsic::nvvm_read_ptx_sreg_laneid:
      return 3;
    default:
      return -1;
    }
  }

private:
  ScalarEvolution &SE;
  UniformityInfo &UI;
};

// Whether a thread-dependent branch condition only bounds the thread index
// by a run-time value (i < n, x < w && y < h): a tail guard, which leaves
// every lane of a full warp active. A bound by a constant (tid < 16) or any
// other condition changes the lanes, and the access is not judged.
bool isTailGuard(const Value *Cond, LaneLinear &LL, ScalarEvolution &SE,
                 unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  const Value *A, *B;
  if (match(Cond, PatternMatch::m_LogicalAnd(PatternMatch::m_Value(A),
                                             PatternMatch::m_Value(B))))
    return isTailGuard(A, LL, SE, Depth + 1) &&
           isTailGuard(B, LL, SE, Depth + 1);
  const auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || Cmp->isEquality() ||
      !SE.isSCEVable(Cmp->getOperand(0)->getType()))
    return false;
  const SCEV *L = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *R = SE.getSCEV(Cmp->getOperand(1));
  if (LL.dependsOnThread(R))
    std::swap(L, R);
  int64_t Coef[4] = {0, 0, 0, 0};
  return !LL.dependsOnThread(R) && !isa<SCEVConstant>(R) && LL.add(L, 1, Coef);
}

// Where a pointer points: a kernel parameter or a __device__ variable
// (global), a __shared__ variable, or neither.
std::optional<bool> sharedOrGlobal(const Value *Base, const Function &Kernel) {
  Base = getUnderlyingObject(Base->stripPointerCasts());
  // A pointer field of a struct the kernel takes by value (a view, an
  // accessor): it points to global memory as a pointer parameter does.
  if (const auto *L = dyn_cast<LoadInst>(Base)) {
    const auto *A =
        dyn_cast<Argument>(getUnderlyingObject(L->getPointerOperand()));
    return A && A->getParent() == &Kernel && A->hasByValAttr()
               ? std::optional<bool>(false)
               : std::nullopt;
  }
  if (const auto *A = dyn_cast<Argument>(Base))
    return A->getParent() == &Kernel ? std::optional<bool>(false)
                                     : std::nullopt;
  if (const auto *GV = dyn_cast<GlobalVariable>(Base)) {
    if (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED)
      return true;
    if (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_GLOBAL)
      return false;
  }
  return std::nullopt;
}

// The accesses of Kernel (its own and those inlined into it) whose address
// is lane-linear with all lanes active. UFAM answers uniformity by the
// thread-varying sources only (IR/DivergenceSources.h): NVPTX's own TTI, in
// FAM, calls every generic load divergent.
void laneLinearAccesses(Function &Kernel, FunctionAnalysisManager &FAM,
                        FunctionAnalysisManager &UFAM,
                        std::vector<LaneLinearAccess> &Out) {
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(Kernel);
  UniformityInfo &UI = UFAM.getResult<UniformityInfoAnalysis>(Kernel);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(Kernel);
  PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(Kernel);
  LaneLinear LL(SE, UI);
  const DISubprogram *SP = Kernel.getSubprogram();
  if (!SP)
    return;
  std::string KernelKey = definitionKey(*SP);
  // The blocks under a thread-dependent branch that is not a tail guard.
  SmallPtrSet<const BasicBlock *, 16> Branches;
  for (BasicBlock &BB : Kernel)
    if (BB.getTerminator() && BB.getTerminator()->getNumSuccessors() > 1 &&
        UI.hasDivergentTerminator(BB))
      Branches.insert(&BB);
  auto AllLanes = [&](const BasicBlock *At) {
    for (const BasicBlock *B : Branches)
      if (DT.dominates(B, At) && !PDT.dominates(At, B)) {
        const auto *Br = dyn_cast<BranchInst>(B->getTerminator());
        if (!Br || !Br->isConditional() ||
            !isTailGuard(Br->getCondition(), LL, SE))
          return false;
      }
    return true;
  };
  for (Instruction &I : instructions(Kernel)) {
    if (!isa<LoadInst>(I) && !isa<StoreInst>(I))
      continue;
    const DILocation *Loc = I.getDebugLoc().get();
    if (!Loc || !Loc->getLine())
      continue;
    Value *Ptr = getLoadStorePointerOperand(&I);
    if (!SE.isSCEVable(Ptr->getType()))
      continue;
    const SCEV *S = SE.getSCEV(Ptr);
    const SCEV *Base = SE.getPointerBase(S);
    const auto *BaseU = dyn_cast<SCEVUnknown>(Base);
    if (!BaseU)
      continue;
    std::optional<bool> Shared = sharedOrGlobal(BaseU->getValue(), Kernel);
    if (!Shared || LL.dependsOnThread(Base))
      continue;
    LaneLinearAccess A;
    const SCEV *Offset = SE.getMinusSCEV(S, Base);
    if (isa<SCEVCouldNotCompute>(Offset) || !LL.add(Offset, 1, A.Coef) ||
        !AllLanes(I.getParent()))
      continue;
    if (!A.Coef[0] && !A.Coef[1] && !A.Coef[2] && !A.Coef[3])
      continue; // a broadcast: nothing to judge
    A.Frames = framesOf(Loc);
    A.IsStore = isa<StoreInst>(I);
    A.Shared = *Shared;
    A.Bytes = bytesOf(I);
    A.Kernel = KernelKey;
    Out.push_back(std::move(A));
  }
}

// A branch that chooses between paths: a conditional br or a switch.
bool isConditionalBranch(const Instruction &I) {
  if (const auto *Br = dyn_cast<BranchInst>(&I))
    return Br->isConditional();
  return isa<SwitchInst>(I);
}

std::tuple<std::string, unsigned, unsigned> branchKey(const SourcePos &P) {
  return {P.File, P.Line, P.Column};
}

// The instructions that run on one side of a branch out of Head: from From
// until Join, where the sides meet (nothing: until the function returns).
// Phis, debug records and unconditional branches are not counted; a loop
// on the side counts once.
// Whether I counts towards a side's or a function's size.
bool counted(const Instruction &I) {
  const auto *Br = dyn_cast<BranchInst>(&I);
  return !isa<PHINode>(I) && !I.isDebugOrPseudoInst() &&
         !I.isLifetimeStartOrEnd() && !(Br && Br->isUnconditional());
}

unsigned sideSize(const BasicBlock *Head, const BasicBlock *From,
                  const BasicBlock *Join) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work = {From};
  unsigned N = 0;
  while (!Work.empty() && Seen.size() < 4096) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || BB == Head || !Seen.insert(BB).second)
      continue;
    N += llvm::count_if(*BB, counted);
    for (const BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  return N;
}

} // namespace

std::string OptimisedAccesses::key(const SourcePos &Pos, bool IsStore) {
  return Pos.File + ":" + std::to_string(Pos.Line) + ":" +
         std::to_string(Pos.Column) + (IsStore ? ":st" : ":ld");
}

struct OptimisedAccesses::Lazy {
  std::unique_ptr<PieceCopies> Owned; // when made for one module alone
  PieceCopies *Copies = nullptr;
  std::unique_ptr<TargetMachine> TM;
  std::string CPU;
  GuardFn Guard;
  std::vector<bool> Done;
  bool Broken = false;
  // The pieces holding a function with code at file:line (its own code, as
  // generated: after -O3 that code is only in the functions of the same
  // pieces), defined at file:line (its subprogram's), and named so.
  StringMap<std::vector<unsigned>> ByLine, ByDefinition, ByName;
};

OptimisedAccesses::OptimisedAccesses() = default;
OptimisedAccesses::~OptimisedAccesses() = default;

size_t OptimisedAccesses::piecesOptimised() const {
  return count(Demand->Done, true);
}

std::unique_ptr<OptimisedAccesses> OptimisedAccesses::analyse(const Module &Src,
                                                              StringRef CPU) {
  auto Copies = std::make_unique<PieceCopies>(Src);
  std::unique_ptr<OptimisedAccesses> Out = analyse(*Copies, Src, CPU);
  if (Out)
    Out->Demand->Owned = std::move(Copies);
  return Out;
}

std::unique_ptr<OptimisedAccesses>
OptimisedAccesses::analyse(PieceCopies &Copies, const Module &Src,
                           StringRef CPU, GuardFn Guard) {
  std::unique_ptr<TargetMachine> TM = nvptxMachine(Src, CPU);
  if (!TM)
    return nullptr;
  auto Out = std::unique_ptr<OptimisedAccesses>(new OptimisedAccesses);
  Out->Demand = std::make_unique<Lazy>();
  Out->Demand->Copies = &Copies;
  Out->Demand->TM = std::move(TM);
  Out->Demand->CPU = CPU.str();
  Out->Demand->Guard = std::move(Guard);
  Out->Demand->Done.assign(Copies.size(), false);
  Out->index(Src);
  return Out;
}

void OptimisedAccesses::index(const Module &M) {
  // Each function's lines once, however many pieces hold it.
  DenseMap<const Function *, SmallVector<std::string, 16>> Lines;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::set<std::pair<const DIFile *, unsigned>> Seen;
    for (const Instruction &I : instructions(F))
      if (const DILocation *Loc = I.getDebugLoc().get(); Loc && Loc->getLine())
        Seen.insert({Loc->getFile(), Loc->getLine()});
    SmallVector<std::string, 16> &Keys = Lines[&F];
    for (auto [File, Line] : Seen)
      Keys.push_back(lineKey(pathOf(File), Line));
  }
  auto Add = [](std::vector<unsigned> &Pieces, unsigned I) {
    if (Pieces.empty() || Pieces.back() != I)
      Pieces.push_back(I);
  };
  for (unsigned I = 0; I < Demand->Copies->size(); ++I)
    for (const Function *F : Demand->Copies->piece(I).Functions) {
      for (const std::string &Key : Lines.lookup(F))
        Add(Demand->ByLine[Key], I);
      if (const DISubprogram *SP = F->getSubprogram())
        Add(Demand->ByDefinition[definitionKey(*SP)], I);
      Add(Demand->ByName[F->getName()], I);
    }
}

void OptimisedAccesses::need(ArrayRef<unsigned> Pieces) const {
  // Logically const: what is optimised here is what every answer assumes.
  auto *Self = const_cast<OptimisedAccesses *>(this);
  Lazy &Z = *Self->Demand;
  for (unsigned I : Pieces) {
    if (Z.Broken)
      return;
    if (Z.Done[I])
      continue;
    Z.Done[I] = true;
    auto Work = [&] {
      Z.Copies->copy(I, [&](Module &M) {
        Self->CurrentPiece = I;
        Self->optimise(M, *Z.TM, Z.CPU);
      });
    };
    if (Z.Guard) {
      if (!Z.Guard(Work))
        Z.Broken = true;
    } else {
      Work();
    }
  }
}

void OptimisedAccesses::needLines(StringRef File, unsigned From,
                                  unsigned To) const {
  for (unsigned Line = From; Line <= To; ++Line) {
    auto It = Demand->ByLine.find(lineKey(File, Line));
    if (It != Demand->ByLine.end())
      need(It->second);
  }
}

void OptimisedAccesses::needDefinition(StringRef File, unsigned Line) const {
  auto It = Demand->ByDefinition.find(lineKey(File, Line));
  if (It != Demand->ByDefinition.end())
    need(It->second);
}

void OptimisedAccesses::needFunction(StringRef Name) const {
  auto It = Demand->ByName.find(Name);
  if (It != Demand->ByName.end())
    need(It->second);
}

std::optional<unsigned> OptimisedAccesses::sizeOf(StringRef Name) const {
  needFunction(Name);
  if (Demand->Broken)
    return std::nullopt;
  auto It = Sizes.find(Name);
  if (It == Sizes.end())
    return std::nullopt;
  return It->second;
}

void OptimisedAccesses::optimise(Module &M, TargetMachine &TM, StringRef CPU) {
  // A __shared__ array the code reads but never writes (a test's, or one
  // filled by inline assembly) is not the undefined value the optimiser
  // would fold its loads to: the accesses stay to be judged.
  for (GlobalVariable &GV : M.globals()) {
    if (!GV.isConstant())
      GV.setExternallyInitialized(true);
    // nvcc places an `extern __shared__` array at a 16-byte boundary (PTX
    // `.align 16`), which lets s[2*t] and s[2*t+1] merge into one v2 access;
    // clang's declaration only promises the element's alignment.
    if (GV.isDeclaration() &&
        GV.getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED &&
        GV.getAlign().valueOrOne() < Align(16))
      GV.setAlignment(Align(16));
  }
  // libdevice (__nv_expf, __nv_sqrtf, ...) is linked in by nvcc, and its
  // functions touch no memory: declared here, they would look like calls
  // that may write anything, keeping loads apart that nvcc merges or CSEs.
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_")) {
      F.setDoesNotAccessMemory();
      F.setDoesNotThrow();
      F.setWillReturn();
      F.setNoSync();
    }
  libdeviceAsIntrinsics(M);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.addFnAttr("target-cpu", CPU);
    auto Generated = [&](const SourcePos &Pos, bool IsStore, unsigned Bytes) {
      Record &R = Records[key(Pos, IsStore)];
      R.Generated = true;
      R.Bytes = Bytes;
      R.Functions.insert(functionId(F.getName()));
    };
    for (Instruction &I : instructions(F))
      if (auto Pos = positionOf(I)) {
        if (isFp64(I)) {
          Fp64Record &R = Fp64[Pos->File][{Pos->Line, Pos->Column}];
          R.Generated = true;
          R.Functions.insert(functionId(F.getName()));
        }
        if (isMemoryAccess(I))
          Generated(*Pos, isa<StoreInst>(I), bytesOf(I));
        for (CopySide C : copySides(I))
          Generated(*Pos, C.IsStore, C.Bytes);
        if (isConditionalBranch(I))
          Branches[branchKey(*Pos)].Generated = true;
      }
  }

  // What clang runs at -O3 for NVPTX, with the alignments nvcc gives.
  O3Pipeline O3(TM, [](PassBuilder &PB, FunctionAnalysisManager &FAM) {
    registerAlignedAA(PB, FAM);
  });
  O3.run(M);
  FunctionAnalysisManager &FAM = O3.FAM;
  FunctionAnalysisManager UFAM;
  UFAM.registerPass([] { return blockUniformityTargetAnalysis(); });
  PassBuilder().registerFunctionAnalyses(UFAM);

  for (Function &F : M) {
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
      if (auto Pos = positionOf(I)) {
        if (isMemoryAccess(I)) {
          Value *Ptr = getLoadStorePointerOperand(&I);
          Before.push_back({WeakVH(&I), I.getParent(), SE.getSCEV(Ptr),
                            Ptr->getType(), isa<StoreInst>(I), bytesOf(I),
                            *Pos});
        }
        // A copy the optimiser left whole is its accesses, unmerged.
        for (CopySide C : copySides(I))
          Records[key(*Pos, C.IsStore)].Survivors.push_back(
              {false, C.Bytes, 0, ""});
      }
    // Run by hand so that the SCEVs above stay valid until matched.
    PreservedAnalyses PA = LoadStoreVectorizerPass().run(F, FAM);

    // The accesses that survived, each block's with their pointers' SCEVs.
    DenseMap<BasicBlock *, SmallVector<Instruction *, 8>> After;
    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I))
        After[I.getParent()].push_back(&I);
    for (const Original &O : Before) {
      Record &R = Records[key(O.Pos, O.IsStore)];
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
        R.Survivors.push_back({true, Bytes,
                               unsigned(D->getAPInt().getZExtValue()),
                               (At ? key(*At, O.IsStore) : std::string("?")) +
                                   "/" + std::to_string(Bytes)});
        break;
      }
    }
    FAM.invalidate(F, PA);
    if (isKernel(F)) {
      size_t Before = Inlined.size();
      laneLinearAccesses(F, FAM, UFAM, Inlined);
      for (size_t I = Before; I < Inlined.size(); ++I)
        Inlined[I].Piece = CurrentPiece;
    }
    recordBranches(F, FAM, UFAM);

    for (Instruction &I : instructions(F))
      if (isMemoryAccess(I)) {
        const DILocation *L = I.getDebugLoc().get();
        if (L && L->getLine() && !L->getColumn())
          LinesWithoutColumn[lineKey(pathOf(L->getFile()), L->getLine())] =
              true;
        // Hoisted out of a loop (LICM drops the position): it may be any
        // access of its kind and width.
        if (!L || !L->getLine())
          Unplaced.insert(
              {functionId(F.getName()), isa<StoreInst>(I), bytesOf(I)});
      }
    Fp64Share Share;
    for (Instruction &I : instructions(F)) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      ++Share.Instructions;
      if (!isFp64(I))
        continue;
      ++Share.Fp64;
      std::optional<SourcePos> Pos = positionOf(I);
      if (!Pos) {
        Fp64Unplaced.insert(functionId(F.getName()));
        continue;
      }
      // A float widened once for the double work of several expressions
      // keeps the position of the first: it is theirs, not its own, unless
      // an FP64 user sits at the same place.
      if (isa<FPExtInst, SIToFPInst, UIToFPInst>(I) &&
          none_of(I.users(), [&](const User *U) {
            const auto *UI = dyn_cast<Instruction>(U);
            std::optional<SourcePos> At = UI ? positionOf(*UI) : std::nullopt;
            return !At || (At->Line == Pos->Line && At->Column == Pos->Column &&
                           At->File == Pos->File);
          }))
        continue;
      ++Fp64[Pos->File][{Pos->Line, Pos->Column}].Survivors;
    }
    if (const DISubprogram *SP = F.getSubprogram()) {
      auto &Slot = Shares[definitionKey(*SP)];
      if (Slot.first <= CurrentPiece)
        Slot = {CurrentPiece, Share};
    }
    Sizes[F.getName()] = Share.Instructions;

    // Nothing of F's analyses is needed past here: kept, they would hold
    // every function's at once.
    FAM.clear(F, F.getName());
    UFAM.clear(F, F.getName());
  }
}

// The conditional branches of F as -O3 left them: thread-dependent or not
// (by the block-level uniformity of IR/DivergenceSources.h), and the sizes
// of their sides.
void OptimisedAccesses::recordBranches(Function &F,
                                       FunctionAnalysisManager &FAM,
                                       FunctionAnalysisManager &UFAM) {
  PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  UniformityInfo &UI = UFAM.getResult<UniformityInfoAnalysis>(F);
  unsigned Size = 0;
  for (const BasicBlock &BB : F)
    Size += llvm::count_if(BB, counted);
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    if (!T || !isConditionalBranch(*T))
      continue;
    auto Pos = positionOf(*T);
    if (!Pos)
      continue;
    BranchCopy C;
    C.Piece = CurrentPiece;
    C.Divergent = UI.hasDivergentTerminator(BB);
    if (C.Divergent) {
      const DomTreeNode *N = PDT.getNode(&BB);
      const BasicBlock *Join =
          N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
      for (unsigned I = 0; I < 2 && I < T->getNumSuccessors(); ++I)
        C.Sides[I] = sideSize(&BB, T->getSuccessor(I), Join);
      C.FunctionSize = Size;
    }
    Branches[branchKey(*Pos)].Survivors.push_back(C);
  }
}

BranchFate OptimisedAccesses::branchesIn(const SourcePos &Begin,
                                         const SourcePos &End) const {
  BranchFate Out;
  needLines(Begin.File, Begin.Line, End.Line);
  if (Demand->Broken)
    return Out;
  bool Generated = false, Survived = false;
  unsigned OutPiece = 0;
  for (auto It = Branches.lower_bound(branchKey(Begin)),
            E = Branches.upper_bound(branchKey(End));
       It != E; ++It) {
    Generated |= It->second.Generated;
    for (const BranchCopy &C : It->second.Survivors) {
      Survived = true;
      if (!C.Divergent)
        continue;
      // The largest; of equal ones, the first piece's (the pieces are
      // optimised in the order they are asked about).
      unsigned Size = C.Sides[0] + C.Sides[1],
               OutSize = Out.Sides[0] + Out.Sides[1];
      if (Out.K != BranchFate::Divergent || Size > OutSize ||
          (Size == OutSize && C.Piece < OutPiece)) {
        Out.Sides[0] = C.Sides[0];
        Out.Sides[1] = C.Sides[1];
        Out.FunctionSize = C.FunctionSize;
        OutPiece = C.Piece;
      }
      Out.K = BranchFate::Divergent;
    }
  }
  if (Out.K == BranchFate::Divergent)
    return Out;
  if (Survived)
    Out.K = BranchFate::Uniform;
  else if (Generated)
    Out.K = BranchFate::Flattened;
  return Out;
}

unsigned OptimisedAccesses::functionId(StringRef Name) {
  return FunctionIds.try_emplace(Name, FunctionIds.size()).first->second;
}

std::vector<const LaneLinearAccess *>
OptimisedAccesses::laneLinear(StringRef File, unsigned Line) const {
  std::vector<const LaneLinearAccess *> Out;
  needDefinition(File, Line);
  if (Demand->Broken)
    return Out;
  std::string Key = lineKey(File, Line);
  for (const LaneLinearAccess &A : Inlined)
    if (A.Kernel == Key)
      Out.push_back(&A);
  // In the pieces' order, whichever order they were optimised in.
  llvm::stable_sort(Out,
                    [](const LaneLinearAccess *A, const LaneLinearAccess *B) {
                      return A->Piece < B->Piece;
                    });
  return Out;
}

Fp64Fate OptimisedAccesses::fp64(const SourcePos &Begin,
                                 const SourcePos &End) const {
  needLines(Begin.File, Begin.Line, End.Line);
  if (Demand->Broken)
    return Fp64Fate::Unknown;
  auto File = Fp64.find(Begin.File);
  if (File == Fp64.end())
    return Fp64Fate::Unknown;
  bool Generated = false;
  // Column 0: a position the optimiser merged from several on one line.
  for (auto It = File->second.lower_bound({Begin.Line, 0}),
            E = File->second.upper_bound({End.Line, ~0u});
       It != E; ++It) {
    auto [Line, Column] = It->first;
    bool Inside = !Column || ((Line > Begin.Line || Column >= Begin.Column) &&
                              (Line < End.Line || Column <= End.Column));
    if (!Inside)
      continue;
    if (It->second.Survivors)
      return Fp64Fate::Kept;
    if (!It->second.Generated)
      continue;
    Generated = true;
    for (unsigned Fn : It->second.Functions)
      if (Fp64Unplaced.count(Fn))
        return Fp64Fate::Unknown;
  }
  return Generated ? Fp64Fate::Removed : Fp64Fate::Unknown;
}

std::optional<Fp64Share> OptimisedAccesses::fp64Share(StringRef File,
                                                      unsigned Line) const {
  needDefinition(File, Line);
  if (Demand->Broken)
    return std::nullopt;
  auto It = Shares.find(lineKey(File, Line));
  if (It == Shares.end())
    return std::nullopt;
  return It->second.second;
}

AccessFate OptimisedAccesses::fate(const SourcePos &Pos, bool IsStore) const {
  needLines(Pos.File, Pos.Line, Pos.Line);
  if (Demand->Broken)
    return {};
  auto It = Records.find(key(Pos, IsStore));
  if (It == Records.end() || !It->second.Generated)
    return {};
  const std::vector<Instance> &S = It->second.Survivors;
  if (S.empty()) {
    if (LinesWithoutColumn.count(lineKey(Pos.File, Pos.Line)))
      return {};
    for (unsigned Fn : It->second.Functions)
      if (Unplaced.count({Fn, IsStore, It->second.Bytes}))
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
