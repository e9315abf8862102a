#include "IR/BarrierDivergence.h"
#include "IR/Barriers.h"
#include "IR/DebugSource.h"
#include "IR/DivergenceSources.h"
#include "IR/PartialReach.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace warplint::ir {

namespace {

// The barrier a synchronising function executes first, depth first through
// its callees, for messages about a call that was not inlined.
std::string barrierInside(const Function &F,
                          const DenseSet<const Function *> &Sync,
                          DenseSet<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return "";
  for (const Instruction &I : instructions(F)) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (auto Name = blockBarrierName(*CB))
      return Name->str();
    const Function *G = CB->getCalledFunction();
    if (G && Sync.contains(G))
      if (std::string Name = barrierInside(*G, Sync, Seen); !Name.empty())
        return Name;
  }
  return "";
}

std::optional<BarrierVerdict>
verdictFor(const CallBase &CB, const DenseSet<const Function *> &Sync) {
  BarrierVerdict V;
  V.Point = &CB;
  if (auto Name = blockBarrierName(CB)) {
    V.Name = Name->str();
    return V;
  }
  const Function *G = CB.getCalledFunction();
  if (!G || !Sync.contains(G))
    return std::nullopt;
  DenseSet<const Function *> Seen;
  V.Name = barrierInside(*G, Sync, Seen);
  V.Callee = G->getName().str();
  if (const DISubprogram *SP = G->getSubprogram())
    V.Callee = SP->getName().str();
  return V;
}

// Whether CB is a barrier of cooperative groups' grid sync, inlined: the
// functions of the toolkit's grid barrier on its debug-info inline chain.
bool isGridBarrier(const CallBase &CB) {
  for (const DILocation *L = CB.getDebugLoc().get(); L; L = L->getInlinedAt())
    if (const DISubprogram *SP = L->getScope()->getSubprogram()) {
      StringRef N = SP->getName();
      if (N == "sync_grids" || N == "sync_grids_arrive" ||
          N == "sync_grids_wait")
        return true;
    }
  return false;
}

// The grid barriers of F that every thread of a block reaches, judged
// again with the block's position as a source of divergence: a grid
// barrier under 'if (blockIdx.x % 2 == 0)' waits for blocks that never come.
void judgeGridBarriers(Function &F, FunctionBarriers &Out) {
  bool Any = false;
  for (const BarrierVerdict &V : Out.Barriers)
    Any |= !V.Branch && isGridBarrier(*V.Point);
  if (!Any)
    return;
  FunctionAnalysisManager GridFAM;
  GridFAM.registerPass([] { return gridUniformityTargetAnalysis(); });
  PassBuilder PB;
  PB.registerFunctionAnalyses(GridFAM);
  auto &UI = GridFAM.getResult<UniformityInfoAnalysis>(F);
  auto &PDT = GridFAM.getResult<PostDominatorTreeAnalysis>(F);
  PartialReach Reach(F, PDT, UI);
  for (BarrierVerdict &V : Out.Barriers)
    if (!V.Branch && isGridBarrier(*V.Point))
      if ((V.Branch = Reach.splittingBranch(V.Point->getParent())))
        V.Grid = true;
  GridFAM.clear();
}

// Rounds of marking values uniform before the barriers are judged.
constexpr unsigned MaxUniformRounds = 4;

FunctionBarriers judge(Function &F, FunctionAnalysisManager &FAM,
                       const DenseSet<const Function *> &Sync,
                       unsigned BlockDimX,
                       const std::vector<std::optional<int64_t>> &Args) {
  FunctionBarriers Out;
  Out.F = &F;
  // Uniformity by value and uniform private copies, to a fixed point: a
  // value marked uniform can make a store uniform, and so a later load.
  for (unsigned Round = 0; Round < MaxUniformRounds; ++Round) {
    auto &UI = FAM.getResult<UniformityInfoAnalysis>(F);
    bool Changed =
        markUniformByValue(F, UI, FAM.getResult<LoopAnalysis>(F), BlockDimX);
    if (!Changed) {
      PartialReach Reach(F, FAM.getResult<PostDominatorTreeAnalysis>(F), UI);
      Changed = markUniformPrivateLoads(F, UI, [&](const BasicBlock &BB) {
        return !Reach.splittingBranch(&BB);
      });
    }
    if (!Changed)
      break;
    PreservedAnalyses PA = PreservedAnalyses::all();
    PA.abandon<UniformityInfoAnalysis>();
    FAM.invalidate(F, PA);
  }
  auto &UI = FAM.getResult<UniformityInfoAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  PartialReach Reach(F, PDT, UI);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (auto V = verdictFor(*CB, Sync)) {
        V->Branch = Reach.splittingBranch(CB->getParent());
        if (V->Branch)
          V->Witness =
              findIRWitness(*CB, *V->Branch, Reach, UI, LI, BlockDimX, Args);
        Out.Barriers.push_back(std::move(*V));
      }
  judgeGridBarriers(F, Out);
  return Out;
}

void printLocation(raw_ostream &OS, const DILocation *L) {
  if (!L)
    return;
  OS << " at " << L->getFilename() << ":" << L->getLine() << ":"
     << L->getColumn();
  for (L = L->getInlinedAt(); L; L = L->getInlinedAt())
    OS << ", inlined at " << L->getFilename() << ":" << L->getLine() << ":"
       << L->getColumn();
}

void printVerdict(raw_ostream &OS, const BarrierVerdict &V) {
  OS << "  "
     << (V.Grid     ? "divergent across the grid"
         : V.Branch ? "divergent"
                    : "uniform")
     << ": " << V.Name;
  if (!V.Callee.empty())
    OS << " in a call to '" << V.Callee << "'";
  if (const MDNode *Tag = barrierTag(*V.Point))
    if (const auto *From = dyn_cast<MDString>(Tag->getOperand(0)))
      OS << " (from '" << From->getString() << "')";
  printLocation(OS, V.Point->getDebugLoc().get());
  OS << "\n";
  if (!V.Branch)
    return;
  OS << "    split by: ";
  if (const auto *Br = dyn_cast<BranchInst>(V.Branch)) {
    OS << "br ";
    Br->getCondition()->printAsOperand(OS, false);
  } else if (const auto *Sw = dyn_cast<SwitchInst>(V.Branch)) {
    OS << "switch ";
    Sw->getCondition()->printAsOperand(OS, false);
  } else {
    OS << V.Branch->getOpcodeName();
  }
  OS << " in ";
  V.Branch->getParent()->printAsOperand(OS, false);
  printLocation(OS, V.Branch->getDebugLoc().get());
  OS << "\n";
  if (!V.Witness) {
    OS << "    witness: none\n";
    return;
  }
  const IRWitness &W = *V.Witness;
  OS << "    witness: "
     << (W.FirstArrivals                 ? "runs"
         : W.K == IRWitness::Kind::Lanes ? "lanes"
         : W.K == IRWitness::Kind::Bound ? "bound"
                                         : "data")
     << " " << W.First << " " << W.Second;
  if (W.FirstArrivals)
    OS << " (arrivals " << W.FirstArrivals << " and " << W.SecondArrivals
       << ")";
  OS << (W.FirstReaches ? " (the first reaches it)" : "")
     << (W.FirstRound ? " in the first round" : "");
  if (W.Branch != V.Branch)
    printLocation(OS, W.Branch->getDebugLoc().get());
  if (W.Source)
    printLocation(OS, W.Source->getDebugLoc().get());
  OS << "\n";
}

} // namespace

std::vector<const BarrierVerdict *> BarrierResult::divergent() const {
  std::vector<const BarrierVerdict *> Out;
  for (const FunctionBarriers &FB : Functions)
    for (const BarrierVerdict &V : FB.Barriers)
      if (V.Branch)
        Out.push_back(&V);
  return Out;
}

BarrierResult analyseBarriers(Module &M, const PrepareOptions &Opts) {
  FunctionAnalysisManager FAM;
  // Before PassBuilder's defaults, which would not replace it.
  FAM.registerPass([] { return blockUniformityTargetAnalysis(); });
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);

  PreparedModule P = prepareModule(M, FAM, Opts);
  BarrierResult R;
  // Each root's analyses are dropped once it is judged: kept, a file of
  // many kernels would hold all of theirs at once.
  FAM.clear();
  for (Function *F : P.Roots) {
    unsigned BlockDimX =
        Opts.BlockDimX && isKernel(*F) ? Opts.BlockDimX(*F) : 0;
    std::vector<std::optional<int64_t>> Args;
    if (Opts.LaunchedArguments && isKernel(*F))
      Args = Opts.LaunchedArguments(*F);
    R.Functions.push_back(judge(*F, FAM, P.Synchronising, BlockDimX, Args));
    FAM.clear(*F, F->getName());
  }
  return R;
}

AnalysisKey BarrierDivergenceAnalysis::Key;

BarrierDivergenceAnalysis::Result
BarrierDivergenceAnalysis::run(Module &M, ModuleAnalysisManager &) {
  Result R;
  R.Clone = CloneModule(M);
  PrepareOptions Opts;
  R.Barriers = analyseBarriers(*R.Clone, Opts);
  return R;
}

PreservedAnalyses BarrierPrinterPass::run(Module &M,
                                          ModuleAnalysisManager &AM) {
  const BarrierResult &R = AM.getResult<BarrierDivergenceAnalysis>(M).Barriers;
  for (const FunctionBarriers &FB : R.Functions) {
    OS << "warplint barriers in " << (isKernel(*FB.F) ? "kernel" : "function")
       << " '" << FB.F->getName() << "':\n";
    for (const BarrierVerdict &V : FB.Barriers)
      printVerdict(OS, V);
  }
  return PreservedAnalyses::all();
}

void registerBarrierPasses(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return BarrierDivergenceAnalysis(); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "print<warplint-barriers>")
          return false;
        MPM.addPass(BarrierPrinterPass(outs()));
        return true;
      });
}

} // namespace warplint::ir
