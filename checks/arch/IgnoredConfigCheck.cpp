#include "checks/arch/IgnoredConfigCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint::arch {

namespace {

// A configuration call of the runtime or driver API: which argument holds
// the setting, and what it sets.
enum class Setting { CacheConfig, BankSize, Attribute };
struct ConfigCall {
  llvm::StringLiteral Name;
  unsigned Arg;
  Setting What;
};

constexpr ConfigCall ConfigCalls[] = {
    {"cudaDeviceSetCacheConfig", 0, Setting::CacheConfig},
    {"cudaFuncSetCacheConfig", 1, Setting::CacheConfig},
    {"cuCtxSetCacheConfig", 0, Setting::CacheConfig},
    {"cuFuncSetCacheConfig", 1, Setting::CacheConfig},
    {"cudaDeviceSetSharedMemConfig", 0, Setting::BankSize},
    {"cudaFuncSetSharedMemConfig", 1, Setting::BankSize},
    {"cuCtxSetSharedMemConfig", 0, Setting::BankSize},
    {"cuFuncSetSharedMemConfig", 1, Setting::BankSize},
    {"cudaFuncSetAttribute", 1, Setting::Attribute},
    {"cuFuncSetAttribute", 1, Setting::Attribute},
};

// The entry of ConfigCalls for a callee the matcher found by its name.
const ConfigCall &configCall(const FunctionDecl *Callee) {
  return *llvm::find_if(ConfigCalls, [&](const ConfigCall &C) {
    return C.Name == Callee->getName();
  });
}

// The enumerator an argument of enumeration type evaluates to
// ("cudaFuncCachePreferL1"), or "" when it is not known before run time.
llvm::StringRef enumeratorOf(const Expr *Arg, QualType Param,
                             const ASTContext &Ctx) {
  const auto *Enum = Param->getAs<EnumType>();
  Expr::EvalResult R;
  if (!Enum || Arg->isValueDependent() || !Arg->EvaluateAsInt(R, Ctx))
    return "";
  const EnumDecl *D = Enum->getDecl()->getDefinition();
  if (!D)
    return "";
  for (const EnumConstantDecl *E : D->enumerators())
    if (llvm::APSInt::isSameValue(E->getInitVal(), R.Val.getInt()))
      return E->getName();
  return "";
}

} // namespace

void IgnoredConfigCheck::registerMatchers(MatchFinder *Finder) {
  std::vector<llvm::StringRef> Names;
  for (const ConfigCall &C : ConfigCalls)
    Names.push_back(C.Name);
  // The toolkit's functions (a system header), called from the user's code.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                              callee(functionDecl(hasAnyName(Names),
                                                  isExpansionInSystemHeader())
                                         .bind("callee")))
                         .bind("call"),
                     this);
}

void IgnoredConfigCheck::check(const MatchFinder::MatchResult &R) {
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("call");
  const auto *Callee = R.Nodes.getNodeAs<FunctionDecl>("callee");
  // In the global namespace (or extern "C" there), as the toolkit declares
  // them.
  if (!Callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return;
  const ConfigCall &C = configCall(Callee);
  if (Call->getNumArgs() <= C.Arg || Callee->getNumParams() <= C.Arg)
    return;
  llvm::StringRef Value = enumeratorOf(
      Call->getArg(C.Arg), Callee->getParamDecl(C.Arg)->getType(), *R.Context);
  if (Value.empty())
    return;
  switch (C.What) {
  case Setting::CacheConfig:
    return cacheConfig(Call, Value);
  case Setting::BankSize:
    return bankSize(Call, Value);
  case Setting::Attribute:
    if (Value == "cudaFuncAttributePreferredSharedMemoryCarveout" ||
        Value == "CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT")
      carveout(Call);
    return;
  }
}

void IgnoredConfigCheck::cacheConfig(const CallExpr *Call,
                                     llvm::StringRef Value) {
  const ArchInfo &A = arch();
  // No preference is what every target does anyway.
  if (A.cache_config_preference || Value.ends_with("PreferNone") ||
      Value.ends_with("PREFER_NONE"))
    return;
  const ArchInfo *Honoured = context().tables().firstWhere(
      [](const ArchInfo &T) { return T.cache_config_preference; });
  diag(Call->getBeginLoc(),
       "'{0}' asks for {1}, which has no effect on {2}: shared memory there is "
       "dedicated, {3} KB per SM whatever the preference, and L1 is merged "
       "with the texture cache (Maxwell Tuning Guide 1.4.3.1: 'the preference "
       "will be ignored'); the call matters only on {4} and later",
       Severity::Note)
      << Call->getDirectCallee()->getName() << Value << A.Name
      << PerTarget{std::to_string(A.shared_memory_per_sm / 1024)}
      << (Honoured ? Honoured->Name : "no known target");
}

void IgnoredConfigCheck::bankSize(const CallExpr *Call, llvm::StringRef Value) {
  const ArchInfo &A = arch();
  if (A.eight_byte_bank_mode ||
      (!Value.contains("EightByte") && !Value.contains("EIGHT_BYTE")))
    return;
  diag(Call->getBeginLoc(),
       "'{0}' asks for 8-byte shared-memory banks, which has no effect on {1}: "
       "the banks there are always {2} bytes wide (Maxwell Tuning Guide "
       "1.4.3.2: Kepler's optional 8-byte banking mode is gone, 'banks are "
       "always four bytes wide'); the call can go",
       Severity::Note)
      << Call->getDirectCallee()->getName() << A.Name
      << int64_t(A.shared_memory_bank_width);
}

void IgnoredConfigCheck::carveout(const CallExpr *Call) {
  const ArchInfo &A = arch();
  if (!A.shared_memory_carveouts_kb.empty())
    return;
  const ArchInfo *Configurable = context().tables().firstWhere(
      [](const ArchInfo &T) { return !T.shared_memory_carveouts_kb.empty(); });
  diag(
      Call->getBeginLoc(),
      "'{0}' sets the preferred shared-memory carveout, which has no effect "
      "on {1}: there is no carveout to choose, shared memory is a fixed {2} KB "
      "per SM, apart from L1 (Volta Tuning Guide 1.4.3.2: the carveout comes "
      "with the unified L1/shared data cache); the call matters only on {3} "
      "and later",
      Severity::Note)
      << Call->getDirectCallee()->getName() << A.Name
      << PerTarget{std::to_string(A.shared_memory_per_sm / 1024)}
      << (Configurable ? Configurable->Name : "no known target");
}

WARPLINT_CHECK_FACTORY(IgnoredConfigCheck)

} // namespace warplint::arch
