// What a check may need of the run beyond the parse's AST, and the interface
// through which it gets it. A check declares its needs where it is
// registered (checks/Checks.def); the driver (or the clang plugin) decides
// from them what to run beside the parse — the IR layer, ptxas — and
// implements RunServices. No file below the checks names a check.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warplint {

struct ArchInfo;
namespace ir {
class OptimisedAccesses;
} // namespace ir

// Needs, combined with '|' in Checks.def.
namespace needs {
inline constexpr unsigned None = 0;
// Judges host code only: in a clang compile it runs in the host pass, not
// in each GPU's (the device parse of warplint sees host code too).
inline constexpr unsigned HostCode = 1u << 0;
// What the IR layer's -O3 pipeline leaves of the device code's loads and
// stores (RunServices::optimisedAccesses).
inline constexpr unsigned OptimisedView = 1u << 1;
// Registers per kernel as ptxas allocates them
// (RunServices::kernelResources).
inline constexpr unsigned ResourceUsage = 1u << 2;
// The IR layer's barrier verdicts, reported under this check's id.
inline constexpr unsigned IRBarriers = 1u << 3;
} // namespace needs

// Registers and shared memory of one kernel as ptxas allocated them.
struct KernelResources {
  unsigned Registers = 0;   // per thread
  unsigned SharedBytes = 0; // static __shared__, as ptxas counts it
  unsigned SpillBytes = 0;  // spill stores
  // The object of the user's build they were read from; empty: ptxas
  // compiled them for this run.
  std::string From;
  // ptxas compiled the PTX of warplint's own code generation of the kernel
  // (--registers-from=ir): nvcc's front end may allocate differently.
  bool Generated = false;
};

// The run's answers beyond the AST; each default is "not available".
class RunServices {
public:
  virtual ~RunServices() = default;
  // What the -O3 pipeline leaves of the device code's accesses when
  // compiled for Arch; null without the IR layer (--ir-layer=false, the
  // plugin) or when code generation failed: the checks keep their AST
  // verdicts.
  virtual const ir::OptimisedAccesses *optimisedAccesses(const ArchInfo &Arch) {
    return nullptr;
  }
  // ptxas's allocation for the kernel of mangled name Mangled compiled for
  // Arch; otherwise why it is not known in Why (empty: the kernel is not in
  // this file's device code).
  virtual std::optional<KernelResources>
  kernelResources(const ArchInfo &Arch, llvm::StringRef Mangled,
                  std::string &Why) {
    Why = "ptxas was not run";
    return std::nullopt;
  }
  // Whether a route to count registers for Arch runs for this parse (the
  // build's object, warplint's code generation with ptxas, or nvcc): false
  // when none was asked for or none can run (--ptxas=false, no toolkit, a
  // target the toolkit lacks, a parse that generates no device code), so
  // that a kernel whose registers are missing then is not a failure.
  virtual bool countsRegisters(const ArchInfo &Arch) { return false; }
  // A check will ask kernelResources about this kernel for Arch: said
  // before the first question, so that the answers are computed together.
  virtual void expectKernelResources(const ArchInfo &Arch,
                                     llvm::StringRef Mangled) {}
  // The compile's -maxrregcount, if any.
  virtual std::optional<unsigned> maxRegisterCount() const {
    return std::nullopt;
  }
};

} // namespace warplint
