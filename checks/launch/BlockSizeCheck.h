// launch-block-size: launches whose block size, written with constants, is
// not a multiple of the warp size, exceeds the per-block thread limit, or is
// too small for an SM to reach full occupancy before its block limit, with
// the kernel's registers (ptxas) and shared memory counted (Pascal deep
// dive; Maxwell tuning guide 1.4.1.1, occupancy). A block that is also the
// algorithm's tile (the same name sizes the kernel's __shared__ arrays) gets
// a note, not a warning.
#pragma once
#include "Analysis/Launches.h"
#include "Analysis/SharedMemory.h"
#include "Core/Check.h"
#include "checks/launch/VerdictGroups.h"
#include "clang/AST/ParentMap.h"
#include <memory>

namespace warplint::launch {

class BlockSizeCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit() override;

private:
  void judge(const clang::Expr *Grid, const clang::Expr *Block,
             const clang::Expr *Dynamic, const clang::FunctionDecl *Kernel,
             const clang::CallExpr *Launch, bool Expect = false);
  bool smallArmOfSizeBranch(const clang::CallExpr *Launch,
                            const clang::FunctionDecl *Kernel,
                            uint64_t Threads);
  bool readsBlockSize(const clang::FunctionDecl *F, unsigned Depth = 0);
  static std::string cubBlockPrimitive(const clang::FunctionDecl *Kernel,
                                       uint64_t Threads);
  StaticSharedMemory StaticShared;
  llvm::DenseMap<const clang::FunctionDecl *, bool> ReadsBlockSize;
  // The statements of each function that launches, by their parents.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<clang::ParentMap>>
      ParentsOf;
  // The launches matched, judged at the end of the TU.
  std::vector<std::pair<const clang::CallExpr *, LaunchSite>> Sites;
  VerdictGroups Groups{VerdictGroups::By::Launch};
};

} // namespace warplint::launch
