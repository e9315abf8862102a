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
  // What the lanes run after From and the statements around it (a branch's
  // other side, the next statement, a loop's next iteration), or null at
  // the end of the function or a return.
  const clang::Stmt *after(const clang::Stmt *From, FunctionDependence &FD);
  // A full-mask collective inside a helper (Links: the calls from the
  // kernel inwards) under Guard, a branch of the helper whose condition
  // differs between the lanes that enter it: the lanes of each warp that
  // reach it, evaluated with every helper's parameters bound to its call's
  // arguments; reported when lanes that skip it go on to other code.
  void judgeHelperGuard(const clang::CallExpr *Site,
                        const clang::CallExpr *Target,
                        llvm::ArrayRef<const clang::CallExpr *> Chain,
                        llvm::ArrayRef<CallLink> Links,
                        const clang::IfStmt *Guard,
                        const clang::CallExpr *Inner, unsigned Tile,
                        FunctionDependence &FD, LaneEvaluator &LE);
  // The lanes of warp W (Lanes: those that exist) that the collective Site
  // needs and that do not reach it (not in Active), whole groups of Tile
  // lanes at a time, less those that returned from the kernel before it.
  uint64_t missingLanes(const clang::CallExpr *Site, uint64_t Active,
                        uint64_t Lanes, unsigned Tile, unsigned W,
                        FunctionDependence &FD, LaneEvaluator &LE);
  // The finding: lanes Missing of warp W do not reach Target, which Active
  // do; Splits: the branch that leaves them out, where it is one place.
  void reportMissing(const clang::CallExpr *Target, unsigned Tile, unsigned W,
                     uint64_t Active, uint64_t Missing, unsigned WarpSize,
                     const clang::Stmt *Splits, const clang::Stmt *GoesOn,
                     llvm::ArrayRef<const clang::CallExpr *> Chain);
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
