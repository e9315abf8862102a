// arch-ignored-config: host calls that configure something the target does
// not have, so they do nothing there — an L1/shared-memory preference where
// shared memory is dedicated (Maxwell Tuning Guide 1.4.3.1: "the preference
// will be ignored"), the 8-byte shared-memory bank mode that ended with
// Kepler (1.4.3.2), a shared-memory carveout where there is none.
#pragma once
#include "Core/Check.h"

namespace warplint::arch {

// Notes, not warnings: the call is harmless, and a build for several targets
// may need it for the ones that honour it. The verdict is the rule table's
// (cache_config_preference, eight_byte_bank_mode,
// shared_memory_carveouts_kb). It runs in the device parse, which sees the
// host code and knows the target; a plain C++ file has no target to judge
// for.
class IgnoredConfigCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  bool wantsHostFunctions() const override { return true; }

  void checkCall(const clang::CallExpr *Call);
  void cacheConfig(const clang::CallExpr *Call, llvm::StringRef Value);
  void bankSize(const clang::CallExpr *Call, llvm::StringRef Value);
  void carveout(const clang::CallExpr *Call);
};

} // namespace warplint::arch
