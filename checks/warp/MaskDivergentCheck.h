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
  // A return before Site in the kernel that some lanes of warp W take.
  const clang::Stmt *earlierReturn(const clang::Stmt *Site,
                                   const clang::FunctionDecl *Fn,
                                   FunctionDependence &FD, LaneEvaluator &LE,
                                   unsigned W);

  llvm::DenseMap<const clang::FunctionDecl *, const clang::CallExpr *> Memo;
  llvm::DenseSet<const clang::CallExpr *> Reported;
};

} // namespace warplint::warp
