// arch-unsupported-feature: device code that uses a feature the target does
// not have — atomicAdd on double, half and bfloat16 fused multiply-adds and
// math, __nanosleep, __match_*_sync, __reduce_*_sync, thread block clusters,
// TMA (cp.async.bulk) — so that the build for that target fails (CUDA C++
// Programming Guide: Atomic Functions, Nanosleep Function, Warp Match
// Functions, Warp Reduce Functions, Thread Block Clusters, Tensor Memory
// Accelerator).
#pragma once
#include "Core/Check.h"

namespace warplint::arch {

// Where the CUDA headers leave a function out for a target without its
// feature, the device parse declares it from
// share/include/features/warplint_missing_features.h, marked with the
// feature's rule-table field; calls to those are found by the mark. The rest
// is found by what it is: atomicAdd on double (clang declares it for every
// target), inline PTX cp.async.bulk and libcu++'s TMA wrappers (both parse
// for every target; ptxas or the linker rejects them). Instantiations are
// checked, with their types; in the branch an if constexpr discards only
// what the headers do not declare is reported (it still fails to build).
class UnsupportedFeatureCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  bool wantsInstantiations() const override { return true; }

  // DiscardedBy: the if constexpr whose discarded branch holds the code.
  void walk(const clang::Stmt *Root, const clang::IfStmt *DiscardedBy);
  void checkCall(const clang::CallExpr *Call, const clang::IfStmt *DiscardedBy);
  void checkAsm(const clang::GCCAsmStmt *Asm);
  // What names the use ("'__nanosleep'"); Feature is its Feature field.
  // The finding, when the target lacks it (reported when it dies, so that
  // the caller may add notes).
  std::optional<FindingBuilder> report(clang::SourceLocation Loc,
                                       llvm::StringRef What,
                                       llvm::StringRef Feature);
};

} // namespace warplint::arch
