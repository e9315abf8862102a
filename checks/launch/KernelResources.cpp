#include "checks/launch/KernelResources.h"
#include "Arch/Occupancy.h"
#include "Core/Check.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warplint::launch {

namespace {
const FunctionDecl *definitionOf(const FunctionDecl *Kernel) {
  const FunctionDecl *Def = Kernel;
  Kernel->hasBody(Def);
  return Def;
}
} // namespace

LaunchBounds launchBoundsOf(const FunctionDecl *Kernel) {
  LaunchBounds Out;
  const FunctionDecl *Def = definitionOf(Kernel);
  const auto *B = Def->getAttr<CUDALaunchBoundsAttr>();
  if (!B)
    return Out;
  auto Value = [&](const Expr *E) -> std::optional<unsigned> {
    if (E && !E->isValueDependent())
      if (auto V = E->getIntegerConstantExpr(Def->getASTContext()))
        return unsigned(V->getZExtValue());
    return std::nullopt;
  };
  Out.MaxThreads = Value(B->getMaxThreads());
  Out.MinBlocks = Value(B->getMinBlocks());
  return Out;
}

std::string KernelResourcesSeen::registerText() const {
  if (!Registers)
    return "";
  if (!From.empty())
    return std::to_string(*Registers) + " registers per thread (the build's '" +
           llvm::sys::path::filename(From).str() + "')";
  return std::to_string(*Registers) + " registers per thread" +
         (Spilled ? " (ptxas, which also spills " + std::to_string(Spilled) +
                        " bytes)"
                  : " (ptxas)");
}

void expectKernelResourcesOf(CheckContext &Ctx, const ArchInfo &A,
                             const FunctionDecl *Kernel) {
  ASTNameGenerator Names(Ctx.astContext());
  Ctx.services().expectKernelResources(A, Names.getName(definitionOf(Kernel)));
}

KernelResourcesSeen kernelResourcesOf(CheckContext &Ctx, const ArchInfo &A,
                                      const FunctionDecl *Kernel,
                                      StaticSharedMemory &Static) {
  KernelResourcesSeen Out;
  RunServices &Src = Ctx.services();
  std::string Why;
  ASTNameGenerator Names(Ctx.astContext());
  std::string Mangled = Names.getName(definitionOf(Kernel));
  std::optional<KernelResources> R = Src.kernelResources(A, Mangled, Why);
  // A static kernel: clang mangles its internal linkage (_ZL...), nvcc's
  // ptxas reports the entry under the external name (_Z...).
  if (!R && llvm::StringRef(Mangled).starts_with("_ZL")) {
    std::string Other;
    R = Src.kernelResources(A, "_Z" + Mangled.substr(3), Other);
  }
  if (R) {
    Out.Registers = R->Registers;
    Out.Spilled = R->SpillBytes;
    Out.StaticSharedBytes = R->SharedBytes;
    Out.From = R->From;
    Out.Generated = R->Generated;
    return Out;
  }
  Out.StaticSharedBytes = unsigned(Static.bytes(Kernel));
  if (Why.empty())
    Why = "ptxas did not compile '" + Kernel->getNameAsString() +
          "' from this file";
  // The caps that bound what ptxas would allocate: said, not counted.
  std::vector<std::string> Caps;
  Out.MostRegisters = A.max_registers_per_thread;
  LaunchBounds Bounds = launchBoundsOf(Kernel);
  if (Bounds.MaxThreads && *Bounds.MaxThreads > 0 &&
      *Bounds.MaxThreads <= A.max_threads_per_block) {
    unsigned N = std::max(Bounds.MinBlocks.value_or(1), 1u);
    unsigned Most = registersForBlocks(A, *Bounds.MaxThreads, N);
    Caps.push_back("__launch_bounds__(" + std::to_string(*Bounds.MaxThreads) +
                   (Bounds.MinBlocks ? ", " + std::to_string(N) : "") +
                   ") caps them at " + std::to_string(Most) + " per thread");
    Out.MostRegisters = std::min(Out.MostRegisters, Most);
  }
  if (std::optional<unsigned> Cap = Src.maxRegisterCount()) {
    Caps.push_back("-maxrregcount caps them at " + std::to_string(*Cap) +
                   " per thread");
    Out.MostRegisters = std::min(Out.MostRegisters, *Cap);
  }
  Out.NotCounted = "registers not counted: " + Why;
  for (const std::string &C : Caps)
    Out.NotCounted += "; " + C;
  return Out;
}

} // namespace warplint::launch
