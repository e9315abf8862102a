// warp-mask-divergent: a _sync warp intrinsic (or a tile collective) that
// names the whole warp in its mask where only part of the warp can reach it
// (Volta tuning guide 1.4.1.2; CUDA programming guide, warp shuffle
// functions: every non-exited lane named in the mask must execute it).
#pragma once
#include "Analysis/LaneEval.h"
#include "Analysis/SyncPrimitives.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseSet.h"

namespace warplint::warp {

class MaskDivergentCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *Fn) override;
  // The first full-mask collective F executes, through user helpers.
  const clang::CallExpr *collectiveIn(const clang::FunctionDecl *F,
                                      unsigned Depth);
  // The lanes a collective at Site needs: the whole warp, or whole tiles.
  bool fullMask(const clang::CallExpr *Call, unsigned &TileSize);
  void judge(const clang::CallExpr *Site, const clang::FunctionDecl *Fn,
             FunctionDependence &FD, LaneEvaluator &LE);

  // Where the lanes of the kernel that do not reach Site go on (the other
  // side of a branch, the statement after it, the next iteration of a
  // loop), or null when they can only exit (the CUDA C++ rule names the
  // non-exited lanes only).
  // Guard: the branch or loop (around Site) whose condition splits.
  const clang::Stmt *continuation(const clang::Stmt *Site,
                                  const clang::Stmt *Guard,
                                  FunctionDependence &FD);
  // A condition around Site that may split a warp and that LaneEval cannot
  // evaluate (data, a run-time bound): reported when the lanes that skip go
  // on to other code.
  void judgeUnknown(const clang::CallExpr *Site, const clang::CallExpr *Target,
                    llvm::ArrayRef<const clang::CallExpr *> Chain,
                    unsigned Tile, FunctionDependence &FD, LaneEvaluator &LE);

  llvm::DenseMap<const clang::FunctionDecl *, const clang::CallExpr *> Memo;
  llvm::DenseSet<const clang::CallExpr *> Reported;
};

} // namespace warplint::warp
