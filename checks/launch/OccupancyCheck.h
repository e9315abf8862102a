// launch-occupancy: a launch whose blocks fit an SM so few at a time that
// registers or shared memory hold its occupancy below MinOccupancy (50% by
// default), or that cannot run at all for its registers; with the limiting
// resource and what would fit one more block (the "Optimizing for CUDA"
// slides' 42 vs 43 registers example). Registers per thread come from the
// toolkit's ptxas (Driver/ResourceUsage) when it compiles for the target;
// else they are left out of the verdict and the message says why.
#pragma once
#include "Analysis/SharedMemory.h"
#include "Arch/Occupancy.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseMap.h"

namespace warplint::launch {

class OccupancyCheck : public FunctionCheck {
public:
  OccupancyCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  void finishTranslationUnit() override;
  bool wantsHostFunctions() const override { return true; }

  struct Launch {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Kernel;
    const clang::Expr *Grid, *Block, *Dynamic;
  };
  struct Registers {
    std::optional<unsigned> PerThread; // exact, from ptxas
    unsigned Spilled = 0;
    std::optional<unsigned> SharedBytes; // static, from ptxas
    std::string NotCounted;              // why PerThread is unknown
  };
  Registers registersOf(const clang::FunctionDecl *Kernel);
  void judge(const Launch &L);

  int64_t MinOccupancy; // percent
  std::vector<Launch> Launches;
  llvm::DenseMap<const clang::FunctionDecl *, uint64_t> OptIns;
  StaticSharedMemory StaticShared;
};

} // namespace warplint::launch
