#include "checks/memory/DynamicSharedOptinCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint::memory {

namespace {

// The kernel a launch API's function argument names: k, &k, (void *)k.
const FunctionDecl *kernelOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Addr = dyn_cast<UnaryOperator>(E))
    E = Addr->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return F->getCanonicalDecl();
  return nullptr;
}

} // namespace

void DynamicSharedOptinCheck::registerMatchers(MatchFinder *Finder) {
  auto InUserCode = unless(isExpansionInSystemHeader());
  Finder->addMatcher(
      cudaKernelCallExpr(InUserCode, forFunction(functionDecl().bind("caller")))
          .bind("launch"),
      this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::cudaLaunchKernel",
                                              "::cudaLaunchCooperativeKernel"))),
               argumentCountAtLeast(5), InUserCode,
               forFunction(functionDecl().bind("caller")))
          .bind("api"),
      this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasName("::cudaFuncSetAttribute"))),
               argumentCountIs(3),
               hasArgument(1, ignoringParenImpCasts(declRefExpr(to(enumConstantDecl(
                                  hasName("cudaFuncAttributeMaxDynamicSharedMemorySize")))))),
               InUserCode, forFunction(functionDecl().bind("caller")))
          .bind("optin"),
      this);
}

void DynamicSharedOptinCheck::check(const MatchFinder::MatchResult &R) {
  const auto *Caller = R.Nodes.getNodeAs<FunctionDecl>("caller");
  if (const auto *L = R.Nodes.getNodeAs<CUDAKernelCallExpr>("launch")) {
    const CallExpr *Config = L->getConfig();
    const FunctionDecl *K = L->getDirectCallee();
    if (K && Config && Config->getNumArgs() >= 3 &&
        !isa<CXXDefaultArgExpr>(Config->getArg(2)))
      Launches.push_back({K->getCanonicalDecl(), Config->getArg(2), Caller});
  } else if (const auto *Api = R.Nodes.getNodeAs<CallExpr>("api")) {
    if (const FunctionDecl *K = kernelOf(Api->getArg(0)))
      Launches.push_back({K, Api->getArg(4), Caller});
  } else if (const auto *Set = R.Nodes.getNodeAs<CallExpr>("optin")) {
    if (const FunctionDecl *K = kernelOf(Set->getArg(0)))
      OptIns[K].push_back({Set, Caller});
  }
}

void DynamicSharedOptinCheck::onEndOfTranslationUnit() {
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
           "%0 is launched with %1: more than the %2 bytes a block can have "
           "on %3 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the "
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
    diag(L.Dynamic->getBeginLoc(),
         "%0 is launched with %1: more than the %2 bytes a block gets on %3 "
         "without opting in, so the launch fails; call "
         "cudaFuncSetAttribute(%4, cudaFuncAttributeMaxDynamicSharedMemorySize, "
         "%5) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is "
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
