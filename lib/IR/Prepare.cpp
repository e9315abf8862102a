#include "IR/Prepare.h"
#include "IR/Barriers.h"
#include "IR/DivergenceSources.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SCCP.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include <deque>

using namespace llvm;

namespace warplint::ir {

namespace {

constexpr StringLiteral TagKind = "warplint.barrier";

const Function *definedCallee(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  return F && !F->isDeclaration() ? F : nullptr;
}

// Fixed point over the call graph: a function synchronises if it executes a
// barrier or calls a function that does.
DenseSet<const Function *> findSynchronising(const Module &M) {
  DenseSet<const Function *> Sync;
  DenseMap<const Function *, SmallVector<const Function *, 4>> Callers;
  SmallVector<const Function *, 16> Work;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (blockBarrierName(*CB)) {
        if (Sync.insert(&F).second)
          Work.push_back(&F);
      } else if (const Function *Callee = definedCallee(*CB)) {
        Callers[Callee].push_back(&F);
      }
    }
  while (!Work.empty())
    for (const Function *Caller : Callers.lookup(Work.pop_back_val()))
      if (Sync.insert(Caller).second)
        Work.push_back(Caller);
  return Sync;
}

// Tags every barrier point before inlining copies it.
void tagBarrierPoints(Module &M, const DenseSet<const Function *> &Sync) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  for (Function &F : M) {
    unsigned N = 0;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      const Function *Callee = definedCallee(*CB);
      if (!blockBarrierName(*CB) && !(Callee && Sync.contains(Callee)))
        continue;
      Metadata *Ops[] = {MDString::get(Ctx, F.getName()),
                         ConstantAsMetadata::get(ConstantInt::get(I32, N++))};
      CB->setMetadata(TagKind, MDNode::get(Ctx, Ops));
    }
  }
}

unsigned sizeOf(const Function &F) { return F.getInstructionCount(); }

void promoteLocals(Function &F, FunctionAnalysisManager &FAM) {
  PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
  FAM.invalidate(F, PA);
}

// What -O3 folds before a barrier is judged: values that are constants
// although computed from the thread index (`tid & 0`, `t ^ t`, `tid <
// 1024` by the register's range), and the branches on them with the code
// they make dead. A barrier the optimised code does not hold, or holds
// under no thread-dependent branch, is no finding.
// (No SimplifyCFG: it asks the target for costs, and the layer's target
// answers uniformity only.)
void foldConstants(Function &F, FunctionAnalysisManager &FAM) {
  for (PreservedAnalyses PA :
       {InstSimplifyPass().run(F, FAM), SCCPPass().run(F, FAM)})
    FAM.invalidate(F, PA);
  // Only branches on constants: a switch of one case stays a switch (the
  // end-of-kernel rule judges an `if`, not a switch's other cases).
  bool Changed = false;
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    const Value *Cond = nullptr;
    if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
      Cond = Br->getCondition();
    else if (const auto *Sw = dyn_cast<SwitchInst>(T))
      Cond = Sw->getCondition();
    if (Cond && isa<ConstantInt>(Cond))
      Changed |= ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
  }
  // Not removeUnreachableBlocks, which folds every terminator it can (a
  // switch of one case into a branch).
  Changed |= EliminateUnreachableBlocks(F);
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
}

// Inlines calls into Root top-down, as LLVM's inliner does with an inline
// history: a call that an inlined body of G brought in may not inline G again.
class RootInliner {
public:
  RootInliner(Function &Root, FunctionAnalysisManager &FAM,
              const DenseSet<const Function *> &Sync,
              DenseSet<Function *> &Promoted, unsigned Budget)
      : Root(Root), FAM(FAM), Sync(Sync), Promoted(Promoted), Budget(Budget),
        Size(sizeOf(Root)) {}

  // Adds the functions it inlined to Inlined.
  void run(DenseSet<const Function *> &Inlined) {
    inlineWhere(Inlined, [&](const Function &G) { return Sync.contains(&G); });
    inlineWhere(Inlined, [](const Function &) { return true; });
  }

private:
  using CallQueue = std::deque<std::pair<CallBase *, int>>;

  template <typename Pred>
  void inlineWhere(DenseSet<const Function *> &Inlined, Pred Wanted) {
    CallQueue Queue;
    for (Instruction &I : instructions(Root))
      if (auto *CB = dyn_cast<CallBase>(&I))
        Queue.push_back({CB, historyOf(CB)});
    while (!Queue.empty()) {
      auto [CB, Hist] = Queue.front();
      Queue.pop_front();
      Function *G = CB->getCalledFunction();
      if (G && !G->isDeclaration() && !G->isVarArg() && Wanted(*G) &&
          !inHistory(G, Hist) && inlineCall(*CB, *G, Hist, Queue))
        Inlined.insert(G);
    }
  }

  // Inlines CB (a call to G) within the budget; queues the calls it brings.
  bool inlineCall(CallBase &CB, Function &G, int Hist, CallQueue &Queue) {
    if (Size + sizeOf(G) > Budget)
      return false;
    if (Promoted.insert(&G).second) // smaller once its locals are promoted
      promoteLocals(G, FAM);
    unsigned Grown = sizeOf(G);
    if (Size + Grown > Budget)
      return false;
    InlineFunctionInfo IFI;
    if (!InlineFunction(CB, IFI, /*MergeAttributes=*/false,
                        /*CalleeAAR=*/nullptr, /*InsertLifetime=*/false)
             .isSuccess())
      return false;
    CallHistory.erase(&CB); // gone: its address may be reused
    Size += Grown;
    History.push_back({&G, Hist});
    int Here = History.size() - 1;
    for (CallBase *New : IFI.InlinedCallSites) {
      CallHistory[New] = Here;
      Queue.push_back({New, Here});
    }
    return true;
  }

  int historyOf(CallBase *CB) const {
    auto It = CallHistory.find(CB);
    return It == CallHistory.end() ? -1 : It->second;
  }
  bool inHistory(const Function *G, int H) const {
    if (G == &Root)
      return true;
    for (; H >= 0; H = History[H].second)
      if (History[H].first == G)
        return true;
    return false;
  }

  Function &Root;
  FunctionAnalysisManager &FAM;
  const DenseSet<const Function *> &Sync;
  DenseSet<Function *> &Promoted;
  unsigned Budget;
  unsigned Size;
  std::vector<std::pair<const Function *, int>> History; // (callee, parent)
  DenseMap<CallBase *, int> CallHistory;
};

// Can a thread entering From reach `unreachable` without passing a block
// from which it could still return?
bool reachesUnreachable(BasicBlock *From,
                        const SmallPtrSetImpl<BasicBlock *> &Returns) {
  SmallVector<BasicBlock *, 8> Work = {From};
  SmallPtrSet<BasicBlock *, 8> Seen = {From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (isa<UnreachableInst>(BB->getTerminator()))
      return true;
    for (BasicBlock *S : successors(BB))
      if (!Returns.count(S) && Seen.insert(S).second)
        Work.push_back(S);
  }
  return false;
}

// A thread that goes to S has nothing left to run: S and the blocks it
// jumps to only jump, up to the function's `ret`. In a kernel that is the
// thread's exit, whether the source wrote `return;` or the branch skipped the
// last `if` (PTX ISA, "exit": a barrier does not wait for exited threads).
bool onlyReturns(const BasicBlock *S) {
  for (unsigned Hops = 0; Hops < 8; ++Hops) {
    const Instruction *T = S->getTerminator();
    if (&S->front() != T)
      return false;
    if (isa<ReturnInst>(T))
      return true;
    const auto *Br = dyn_cast<BranchInst>(T);
    if (!Br || Br->isConditional())
      return false;
    S = Br->getSuccessor(0);
  }
  return false;
}

// The edge From -> To is a loop's own condition turning false (the header
// of a while or for, the latch of a do-while), not a break or a return out
// of its body: the threads that run more iterations meet the barrier more
// often than the others did, whatever comes after the loop.
bool leavesLoopByCondition(const BasicBlock *From, const BasicBlock *To,
                           const LoopInfo &LI) {
  const Loop *L = LI.getLoopFor(From);
  return L && !L->contains(To) &&
         (From == L->getHeader() || L->isLoopLatch(From));
}

// A switch's edges into code that leaves (CCCL's `default:
// _CCCL_UNREACHABLE();` after every real case): the cases are dropped and a
// leaving default goes to a case that stays. Nothing changes when every edge
// leaves, or none does.
template <typename LeavesFn>
bool cutSwitchEdges(SwitchInst *SI, LeavesFn Leaves) {
  BasicBlock *Stay = nullptr;
  SmallPtrSet<BasicBlock *, 8> Leaving;
  for (BasicBlock *S : successors(SI->getParent())) {
    if (Leaving.count(S) || S == Stay)
      continue;
    if (Leaves(S))
      Leaving.insert(S);
    else if (!Stay)
      Stay = S;
  }
  if (!Stay || Leaving.empty())
    return false;
  BasicBlock *BB = SI->getParent();
  for (auto It = SI->case_begin(); It != SI->case_end();) {
    if (Leaving.count(It->getCaseSuccessor())) {
      It->getCaseSuccessor()->removePredecessor(BB, /*KeepOneInputPHIs=*/true);
      It = SI->removeCase(It);
    } else {
      ++It;
    }
  }
  if (Leaving.count(SI->getDefaultDest())) {
    SI->getDefaultDest()->removePredecessor(BB, /*KeepOneInputPHIs=*/true);
    // The default now goes where a case goes: PHIs there get one more edge
    // from BB with the value they already take from it.
    for (PHINode &Phi : Stay->phis())
      Phi.addIncoming(Phi.getIncomingValueForBlock(BB), BB);
    SI->setDefaultDest(Stay);
  }
  return true;
}

// A loop whose only way out was a cut edge (a work queue's `while (1) { ...
// if (done) break; ... }` at the end of the kernel) now never ends, and a
// post-dominator tree of a region that never reaches the exit blames
// unrelated branches. Such a loop gets a way out from its latch on a constant
// condition: uniform, so nothing is control-dependent on it, and the blocks
// of the loop post-dominate again what they did.
void keepLoopsLeaving(Function &F, FunctionAnalysisManager &FAM) {
  const LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  BasicBlock *Exit = nullptr;
  bool Changed = false;
  for (const Loop *L : LI.getLoopsInPreorder()) {
    if (!L->hasNoExitBlocks())
      continue;
    BasicBlock *Latch = L->getLoopLatch();
    auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
    if (!Br || Br->isConditional())
      continue;
    if (!Exit) {
      Exit = BasicBlock::Create(F.getContext(), "warplint.loop.exit", &F);
      if (F.getReturnType()->isVoidTy())
        ReturnInst::Create(F.getContext(), Exit);
      else
        ReturnInst::Create(F.getContext(), PoisonValue::get(F.getReturnType()),
                           Exit);
    }
    BranchInst::Create(Br->getSuccessor(0), Exit,
                       ConstantInt::getTrue(F.getContext()), Br->getIterator());
    Br->eraseFromParent();
    Changed = true;
  }
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
}

// Whether Cond is computed from the block's position (blockIdx, a group's
// block rank) and nothing thread-varying: the same in every thread of a
// block, so no thread of a block leaves without the others. Its edge to the
// kernel's end stays: whole blocks leave there, and a grid barrier waits
// for them (judgeGridBarriers).
bool blockPositionOnly(const Value *Cond) {
  SmallVector<const Value *, 16> Work{Cond};
  SmallPtrSet<const Value *, 32> Seen;
  bool Position = false;
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (Seen.size() > 64 ||
        blockUniformityOf(I) == InstructionUniformity::NeverUniform)
      return false;
    if (gridUniformityOf(I) == InstructionUniformity::NeverUniform) {
      Position = true;
      continue;
    }
    if (isa<LoadInst>(I))
      continue;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return Position;
}

// Cuts the branch edges that threads take to leave: into code that can only
// abort (never returns, ends in `unreachable`), and in a kernel into its
// `ret` with nothing on the way (see onlyReturns). Those threads have exited,
// and a barrier waits for the non-exited threads only (PTX ISA, "exit" and
// "barrier"; Volta tuning guide 1.4.1.2). A helper's return is not an exit
// when its caller goes on.
void cutLeavingEdges(Function &F, FunctionAnalysisManager &FAM) {
  SmallPtrSet<BasicBlock *, 32> Returns; // blocks that can reach a return
  SmallVector<BasicBlock *, 16> Work;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()) && Returns.insert(&BB).second)
      Work.push_back(&BB);
  while (!Work.empty())
    for (BasicBlock *P : predecessors(Work.pop_back_val()))
      if (Returns.insert(P).second)
        Work.push_back(P);
  if (!Returns.count(&F.getEntryBlock()))
    return; // a kernel that never returns: nothing to compare with
  const LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  bool Kernel = isKernel(F);
  auto Leaves = [&](BasicBlock *From, BasicBlock *S) {
    return (!Returns.count(S) && reachesUnreachable(S, Returns)) ||
           (Kernel && onlyReturns(S) && !leavesLoopByCondition(From, S, LI));
  };
  bool Changed = false;
  for (BasicBlock &BB : F) {
    if (auto *SI = dyn_cast<SwitchInst>(BB.getTerminator());
        SI && Returns.count(&BB)) {
      // Only into code that aborts: a switch's other cases are not judged
      // as the end of the kernel (nor are they by the AST check).
      Changed |= cutSwitchEdges(SI, [&](BasicBlock *S) {
        return !Returns.count(S) && reachesUnreachable(S, Returns);
      });
      continue;
    }
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() || !Returns.count(&BB))
      continue;
    BasicBlock *T = Br->getSuccessor(0), *E = Br->getSuccessor(1);
    bool TLeaves = Leaves(&BB, T), ELeaves = Leaves(&BB, E);
    if (TLeaves == ELeaves || blockPositionOnly(Br->getCondition()))
      continue;
    (TLeaves ? T : E)->removePredecessor(&BB);
    BranchInst::Create(TLeaves ? E : T, Br->getIterator());
    Br->eraseFromParent();
    Changed = true;
  }
  if (Changed) {
    removeUnreachableBlocks(F);
    FAM.invalidate(F, PreservedAnalyses::none());
    keepLoopsLeaving(F, FAM);
  }
}

void prepareRoot(Function &F, FunctionAnalysisManager &FAM,
                 const DenseSet<const Function *> &Sync,
                 DenseSet<Function *> &Promoted,
                 DenseSet<const Function *> &Inlined,
                 const PrepareOptions &Opts) {
  RootInliner(F, FAM, Sync, Promoted, Opts.InlineBudget).run(Inlined);
  FAM.invalidate(F, PreservedAnalyses::none());
  // Folded before the edges that leave the kernel are cut: a loop whose
  // only exit is such an edge has none left after, and folding it then
  // leaves nothing after the loop for post-dominance to end at.
  promoteLocals(F, FAM);
  foldConstants(F, FAM);
  cutLeavingEdges(F, FAM);
  promoteLocals(F, FAM);
}

} // namespace

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel;
}

const MDNode *barrierTag(const CallBase &CB) { return CB.getMetadata(TagKind); }

PreparedModule prepareModule(Module &M, FunctionAnalysisManager &FAM,
                             const PrepareOptions &Opts) {
  PreparedModule P;
  P.Synchronising = findSynchronising(M);
  if (P.Synchronising.empty())
    return P;
  tagBarrierPoints(M, P.Synchronising);
  auto Judged = [&](const Function &F) {
    return P.Synchronising.contains(&F) && !F.isDeclaration() &&
           !(Opts.InSystemHeader && Opts.InSystemHeader(F));
  };
  for (Function &F : M)
    if (isKernel(F) && Judged(F))
      P.Roots.push_back(&F);
  DenseSet<Function *> Promoted;
  DenseSet<const Function *> Inlined;
  for (Function *K : P.Roots)
    prepareRoot(*K, FAM, P.Synchronising, Promoted, Inlined, Opts);
  // A helper inlined into every caller was judged there; the others (library
  // functions, calls past the budget, recursion) are judged on their own.
  std::vector<Function *> Helpers;
  for (Function &F : M)
    if (!isKernel(F) && Judged(F) && (!Inlined.contains(&F) || !F.use_empty()))
      Helpers.push_back(&F);
  for (Function *F : Helpers)
    prepareRoot(*F, FAM, P.Synchronising, Promoted, Inlined, Opts);
  P.Roots.insert(P.Roots.end(), Helpers.begin(), Helpers.end());
  return P;
}

} // namespace warplint::ir
