// divergence-barrier on device LLVM IR: the block-wide barriers that only part
// of a thread block may reach, found with LLVM's uniformity analysis seeded
// with thread-varying sources only (DivergenceSources.h), in the context of
// the kernels that reach them (Prepare.h), by control dependence on a
// divergent branch (PartialReach.h).
//
// Also the new-pass-manager entry points: the module analysis and the
// print<warplint-barriers> printer, registered for opt and clang by
// registerBarrierPasses.
#pragma once
#include "IR/IRWitness.h"
#include "IR/Prepare.h"
#include "llvm/IR/PassManager.h"
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class DILocation;
class Instruction;
class PassBuilder;
} // namespace llvm

namespace warplint::ir {

// A barrier point and what it was judged to be, in one analysed function.
struct BarrierVerdict {
  const llvm::CallBase *Point = nullptr;
  std::string Name;   // "__syncthreads()"; for a call, the barrier inside
  std::string Callee; // the synchronising function a call point calls
  const llvm::Instruction *Branch = nullptr; // null: every thread reaches it
  // A grid barrier (cooperative groups' grid sync) that every thread of a
  // block reaches, but only some blocks: Branch splits the grid's blocks.
  bool Grid = false;
  // Two threads that part at the branch (IRWitness.h), when found.
  std::optional<IRWitness> Witness;
};

struct FunctionBarriers {
  const llvm::Function *F = nullptr;
  std::vector<BarrierVerdict> Barriers;
};

struct BarrierResult {
  std::vector<FunctionBarriers> Functions;
  // The divergent verdicts in the order found, kernels first. One barrier
  // of the source may appear once per divergent call path: a report keeps
  // one per position it reports at (barrierTag() tells the copies apart).
  std::vector<const BarrierVerdict *> divergent() const;
};

// Judges every barrier of M. Transforms M (inlining, SROA): clone it first if
// it is still needed as it was.
BarrierResult analyseBarriers(llvm::Module &M, const PrepareOptions &Opts = {});

// The module analysis; it judges a clone, so the module is left unchanged,
// and reads the sources named by the debug info to tell returns apart.
// Its result owns the clone the verdicts point into.
class BarrierDivergenceAnalysis
    : public llvm::AnalysisInfoMixin<BarrierDivergenceAnalysis> {
public:
  struct Result {
    std::unique_ptr<llvm::Module> Clone;
    BarrierResult Barriers;
    bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &PA,
                    llvm::ModuleAnalysisManager::Invalidator &) {
      auto C = PA.getChecker<BarrierDivergenceAnalysis>();
      return !C.preserved() &&
             !C.preservedSet<llvm::AllAnalysesOn<llvm::Module>>();
    }
  };
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  friend llvm::AnalysisInfoMixin<BarrierDivergenceAnalysis>;
  static llvm::AnalysisKey Key;
};

// print<warplint-barriers>: each analysed function and its barriers.
class BarrierPrinterPass : public llvm::PassInfoMixin<BarrierPrinterPass> {
public:
  explicit BarrierPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

// Registers the analysis and the printer under their textual pipeline names.
void registerBarrierPasses(llvm::PassBuilder &PB);

} // namespace warplint::ir
