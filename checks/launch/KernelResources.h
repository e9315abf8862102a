// What the launch checks know of a kernel's resources for one target: its
// registers per thread as the toolkit's ptxas allocates them (or why they
// are not known, with the caps __launch_bounds__ and -maxrregcount put on
// them), its static shared memory (ptxas's count, else its __shared__
// variables and its callees'), and its __launch_bounds__.
#pragma once
#include "Analysis/SharedMemory.h"
#include "Arch/ArchTable.h"
#include "clang/AST/Decl.h"
#include <optional>
#include <string>

namespace warplint {
class CheckContext;
} // namespace warplint

namespace warplint::launch {

struct KernelResourcesSeen {
  std::optional<unsigned> Registers; // per thread, from ptxas
  unsigned Spilled = 0;              // bytes of spill stores, from ptxas
  unsigned StaticSharedBytes = 0;
  std::string From; // the build's object they were read from, if any
  // Registers ptxas counted of warplint's own code generation of the kernel
  // (--registers-from=ir), not of nvcc's.
  bool Generated = false;
  std::string NotCounted; // why Registers is unknown, with the caps
  // With Registers unknown: the most ptxas may allocate per thread, from
  // __launch_bounds__ and -maxrregcount, else the target's limit.
  unsigned MostRegisters = 0;
  // "128 registers per thread (ptxas)", with its spills; empty if unknown.
  std::string registerText() const;
};

// Tells the run that kernelResourcesOf will be asked about Kernel for A.
void expectKernelResourcesOf(CheckContext &Ctx, const ArchInfo &A,
                             const clang::FunctionDecl *Kernel);

KernelResourcesSeen kernelResourcesOf(CheckContext &Ctx, const ArchInfo &A,
                                      const clang::FunctionDecl *Kernel,
                                      StaticSharedMemory &Static);

// A kernel's __launch_bounds__(MaxThreads, MinBlocks), read from its
// definition (where the attribute is written).
struct LaunchBounds {
  std::optional<unsigned> MaxThreads, MinBlocks;
};
LaunchBounds launchBoundsOf(const clang::FunctionDecl *Kernel);

} // namespace warplint::launch
