#include "checks/memory/DynamicSharedOptinCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/Launches.h"
#include "Analysis/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warplint::memory {

void DynamicSharedOptinCheck::checkFunction(const FunctionDecl *F) {
  // A launch written in a lambda is one this function makes.
  forEachStmt(F->getBody(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    LaunchSite L = launchSite(Call);
    if (isLaunch(Call) && L.Kernel && L.SharedBytes)
      Launches.push_back({L.Kernel, L.SharedBytes, F});
    if (std::optional<SharedOptIn> O = sharedOptIn(Call))
      OptIns[O->Kernel].push_back({Call, F});
  });
}

void DynamicSharedOptinCheck::finishTranslationUnit() {
  const ArchInfo &A = arch();
  const SourceManager &SM = context().sourceManager();
  for (const Launch &L : Launches) {
    std::optional<uint64_t> Dynamic =
        context().affine().literalValueOf(L.Dynamic);
    if (!Dynamic)
      continue; // a size known at run time
    uint64_t Static = StaticShared.bytes(L.Kernel);
    uint64_t Total = Static + *Dynamic;
    if (Total <= A.max_shared_memory_per_block)
      continue;
    std::string Name = "'" + L.Kernel->getNameAsString() + "'";
    std::string Parts =
        std::to_string(*Dynamic) + " bytes of dynamic shared memory" +
        (Static ? " on top of " + std::to_string(Static) + " static, " +
                      std::to_string(Total) + " per block"
                : "");
    if (Total > A.max_shared_memory_per_block_optin) {
      diag(L.Dynamic->getBeginLoc(),
           "{0} is launched with {1}: more than the {2} bytes a block can have "
           "on {3} even with cudaFuncAttributeMaxDynamicSharedMemorySize; the "
           "launch fails",
           Severity::Error)
          << Name << Parts << int64_t(A.max_shared_memory_per_block_optin)
          << A.Name;
      continue;
    }
    // Opted in: a cudaFuncSetAttribute for this kernel in another function
    // (set up once, elsewhere), or before the launch in this one.
    bool Opted = false;
    auto It = OptIns.find(L.Kernel);
    if (It != OptIns.end())
      for (const OptIn &O : It->second)
        Opted |= O.Caller != L.Caller ||
                 SM.isBeforeInTranslationUnit(O.Call->getBeginLoc(),
                                              L.Dynamic->getBeginLoc());
    if (Opted)
      continue;
    diag(
        L.Dynamic->getBeginLoc(),
        "{0} is launched with {1}: more than the {2} bytes a block gets on {3} "
        "without opting in, so the launch fails; call "
        "cudaFuncSetAttribute({4}, "
        "cudaFuncAttributeMaxDynamicSharedMemorySize, "
        "{5}) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is "
        "required to enable dynamic allocations above 48 KB)",
        Severity::Error)
        << Name << Parts << int64_t(A.max_shared_memory_per_block) << A.Name
        << L.Kernel->getNameAsString() << int64_t(*Dynamic);
  }
  Launches.clear();
  OptIns.clear();
}

WARPLINT_CHECK_FACTORY(DynamicSharedOptinCheck)

} // namespace warplint::memory
