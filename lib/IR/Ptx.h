// The PTX of a few kernels of the device module, made as clang makes it for
// `-O3 --cuda-device-only -S`: the kernels and all they reach copied into a
// context of their own, libdevice linked where they call it, everything but
// the kernels internalised (a whole-program compile, as nvcc's default is),
// clang's -O3 pipeline for NVPTX, then the NVPTX code generator. ptxas on
// this text gives the registers launch-occupancy judges with, without a
// second front end (Driver/KernelRegisters.h).
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llvm/Passes/PassBuilder.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace warplint::ir {

// The NVPTX target machine for CPU (an sm_XX name) and M's triple, at -O3;
// null when LLVM lacks the target.
// Features: its default subtarget's (+ptx88), which the module-level
// directives of the PTX it emits follow.
// ShortPointers: 32-bit pointers to shared, constant and local memory (the
// machine's data layout then has p3:32, as clang's -fcuda-short-ptr gives),
// which is how nvcc's NVVM addresses them.
std::unique_ptr<llvm::TargetMachine> nvptxMachine(const llvm::Module &M,
                                                  llvm::StringRef CPU,
                                                  llvm::StringRef Features = "",
                                                  bool ShortPointers = false);

// Clang's -O3 pipeline for NVPTX (the target's callbacks included), and
// its analysis managers, which the caller may go on using after run().
struct O3Pipeline {
  // Extra registers analyses of the caller's before the defaults.
  O3Pipeline(llvm::TargetMachine &TM,
             llvm::function_ref<void(llvm::PassBuilder &,
                                     llvm::FunctionAnalysisManager &)>
                 Extra = nullptr);
  // Runs the pipeline on M, then drops what its analyses cached.
  void run(llvm::Module &M);

  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
};

// What kernelsPtx made.
struct KernelsPtx {
  std::string Text; // the PTX
  // The kernels asked for that M defines, by name.
  std::vector<std::string> Kernels;
  // Those left out for their size (over InstructionBudget LLVM
  // instructions after -O3), by name, with their size.
  std::vector<std::pair<std::string, unsigned>> TooLarge;
  // Those left out because they call a legacy warp intrinsic (a shuffle or
  // vote without .sync) that sm_70 and later lack, with its CUDA name
  // (__shfl_down): compiled, one would stop the compile of all the others.
  std::vector<std::pair<std::string, std::string>> Unsupported;
};

// The PTX of the kernels of M named in Kernels (those M does not define are
// skipped), for CPU. Libdevice is the path of libdevice.10.bc, linked in when
// the kernels call its functions (empty: not linked). A kernel larger than
// InstructionBudget after -O3 (0: no budget) is left out. KnownSize, where
// given, says a kernel's size after another -O3 of the same code (the
// memory checks' optimised view, without libdevice and internalisation): a
// kernel it puts over twice the budget is left out with that size, before
// this -O3 spends its time on it (the tensor-core GEMMs' unrolled loops).
llvm::Expected<KernelsPtx> kernelsPtx(
    const llvm::Module &M, llvm::ArrayRef<std::string> Kernels,
    llvm::StringRef CPU, llvm::StringRef Libdevice, unsigned InstructionBudget,
    llvm::function_ref<std::optional<unsigned>(llvm::StringRef)> KnownSize =
        nullptr);

} // namespace warplint::ir
