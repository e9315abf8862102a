// The IR layer of one device parse: clang's code generator run on the same
// AST the checks saw, then divergence-barrier findings from the device IR,
// mapped back to source through debug locations and reported through the
// checks' CheckContext (so NOLINT, system headers, --checks and the output
// formats apply as to any finding), and, for the memory checks, what the
// -O3 pipeline leaves of each access (IR/OptimisedAccesses.h).
//
// The code generator is fed at the end of the translation unit, from a record
// of what the parser handed the consumers, after the checks have run: a TU
// with errors never reaches it, and what it would diagnose (it is not the
// compiler the user asked for) is kept out of the user's diagnostics.
#pragma once
#include "Core/Services.h"
#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace warplint {
class CheckContext;
class DiagSink;
namespace ir {
class OptimisedAccesses;
} // namespace ir

// --ir-layer (CLI) and ir-layer= (plugin): the IR layer with the AST checks,
// not at all, or alone (the AST check off, to test the IR layer).
enum class IRLayerMode { On, Off, Only };

// A target the verdicts are reported for: the context of its checks and the
// sink they reported to.
struct IRLayerTarget {
  CheckContext *Ctx;
  DiagSink *Sink;
};

// The consumer to put after the checks' one in a MultiplexConsumer. The code
// is generated once, for the parse's target, when the checks first ask for
// the optimised accesses or at the end of the TU. With a BarrierCheck (the
// check that declared needs::IRBarriers), its barrier verdicts are reported
// under that check's id for each of Targets() (asked after the checks ran:
// one parse may be judged for several targets); findings at a line where
// the AST layer already reported that check for that target are dropped. Any
// failure of the IR layer means no IR findings, never an error; Analysed (if
// given) is set once the IR was generated and analysed, and Failure (if
// given) says why code generation or the IR passes failed (the code
// generator's first error, or the LLVM fatal error's reason), for a warning.
class IRLayerConsumer : public clang::ASTConsumer {
public:
  // The registers of the kernel of mangled name Mangled as the ptxas of
  // IRLayerPtxas allocates them for Target, compiling the PTX this layer
  // generates of it and of the kernels expected so far and not yet
  // compiled, together (ptxas once per target for them all); otherwise why
  // not in Why (empty: the kernel is not in this file's device code).
  virtual std::optional<KernelResources>
  kernelResources(llvm::StringRef Target, llvm::StringRef Mangled,
                  std::string &Why) = 0;
  // A check will ask kernelResources about this kernel: it is compiled with
  // the others expected before the question that compiles them.
  virtual void expectKernel(llvm::StringRef Mangled) = 0;
  // What -O3 leaves of the accesses of the device code, optimised for CPU
  // (an sm_XX name), computed on first use; null when code generation or
  // the pipeline failed (the checks keep their AST verdicts).
  virtual const ir::OptimisedAccesses *
  optimisedAccesses(llvm::StringRef CPU) = 0;
};

// The ptxas kernelResources runs (empty: none), the libdevice the kernels'
// code links, and where ptxas's answers are cached (empty: not cached).
struct IRLayerPtxas {
  std::string Ptxas, Libdevice, CacheDir;
};

std::unique_ptr<IRLayerConsumer>
createIRLayerConsumer(clang::CompilerInstance &CI,
                      std::function<std::vector<IRLayerTarget>()> Targets,
                      bool *Analysed = nullptr, std::string BarrierCheck = "",
                      std::string *Failure = nullptr, IRLayerPtxas Ptxas = {});

} // namespace warplint
