// launch-occupancy: a launch whose blocks fit an SM so few at a time that
// registers or shared memory hold its occupancy below MinOccupancy (50% by
// default), or that cannot run at all for its registers; with every limiting
// resource and the change to them that fits enough more blocks to add
// MinGain points of occupancy (the "Optimizing for CUDA" slides' 42 vs 43
// registers example). Silent where that change cannot be made or the grid
// is resident already (a persistent kernel of k blocks per SM). Registers per
// thread come from the toolkit's ptxas (Driver/ResourceUsage) when it compiles
// for the target; else they are left out of the verdict and the message says
// why.
#pragma once
#include "Analysis/SharedMemory.h"
#include "Arch/Occupancy.h"
#include "Core/Check.h"
#include "checks/launch/VerdictGroups.h"
#include "llvm/ADT/DenseMap.h"
#include <climits>
#include <optional>

namespace warplint::launch {

class OccupancyCheck : public FunctionCheck {
public:
  OccupancyCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  void finishTranslationUnit() override;
  void launchMatched(const clang::CallExpr *Call) override;
  bool wantsHostFunctions() const override { return true; }

  struct Launch {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Kernel;
    const clang::Expr *Grid, *Block, *Dynamic;
  };
  // The launch of Call, if its kernel and block are known.
  static std::optional<Launch> launchOf(const clang::CallExpr *Call);
  // Expect: only tell the run that the verdict needs L's kernel's
  // registers (expectKernelResourcesOf).
  void judge(const Launch &L, bool Expect = false);
  // The verdict on L with resources R (occupancy O) and a grid of at most
  // G blocks: none where occupancy is high enough, the grid is resident
  // already or no change adds MinGain points.
  struct Verdict {
    bool ByRegisters = false, ByShared = false;
    unsigned MaxBlocks = UINT_MAX; // blocks per SM the grid gives at most
    uint64_t FillsAbove = 0;       // a run-time grid must exceed this
    std::optional<OccupancyStep> Step;
  };
  std::optional<Verdict> verdict(const Launch &L, const LaunchResources &R,
                                 const Occupancy &O, std::optional<uint64_t> G);
  // The occupancy of L with resources R but Regs registers per thread,
  // and the verdict on it.
  std::pair<Occupancy, std::optional<Verdict>>
  verdictWith(const Launch &L, LaunchResources R, unsigned Regs,
              std::optional<uint64_t> G);
  // How far nvcc's registers may lie from those of warplint's own code
  // generation (--registers-from=ir): within 8 for 203 of 211 kernels of
  // the development corpus (bench/realcode/routes-sm80.txt).
  static constexpr unsigned RouteError = 8;

  int64_t MinOccupancy; // percent
  int64_t MinGain;      // percentage points of occupancy a fix must add
  std::vector<Launch> Launches;
  // Launches whose registers were not counted and could change the verdict
  // (the file's note).
  struct UnjudgedLaunch {
    clang::SourceLocation Loc;
    const clang::FunctionDecl *Kernel;
    std::string NotCounted;
  };
  std::vector<UnjudgedLaunch> Unjudged;
  llvm::DenseMap<const clang::FunctionDecl *, uint64_t> OptIns;
  StaticSharedMemory StaticShared;
  VerdictGroups Groups{VerdictGroups::By::Kernel};
};

} // namespace warplint::launch
