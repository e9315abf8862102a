// The synchronisation primitives of CUDA C++, recognised in the AST: block
// barriers (__syncthreads and its _count/_and/_or forms, bar.sync /
// barrier.sync in inline asm, cooperative groups' thread_block sync), grid
// barriers, and the warp-level _sync intrinsics with the argument that holds
// their mask.
#pragma once
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace warplint {

enum class SyncKind {
  None,
  BlockBarrier,   // every non-exited thread of the block must arrive
  PartialBarrier, // a named barrier with a thread count: a subset by design
  GridBarrier,    // cooperative groups' grid sync
  WarpBarrier,    // __syncwarp(mask)
  WarpCollective, // __shfl*_sync, votes, __match_*, __reduce_*_sync
  TileCollective, // a tiled_partition / coalesced group's collective
};

struct SyncSite {
  SyncKind Kind = SyncKind::None;
  std::string Name; // as the user calls it: "__syncthreads", "block.sync"
  int MaskArg = -1; // the argument holding the lane mask, if any
};

// What S is, if it is itself a synchronisation primitive.
SyncSite classifySync(const clang::Stmt *S);

// Whether a mask argument is the full mask of a warp of WarpSize lanes
// (0xffffffff, -1, ~0u, a constant that folds to it).
bool isFullMask(const clang::Expr *Mask, const clang::ASTContext &Ctx,
                unsigned WarpSize);

// N of a cooperative_groups::thread_block_tile<N> type, or 0.
unsigned tileSizeOf(clang::QualType T);

// The definition S calls when S is a call of a function with a body outside
// the system headers (a helper the user wrote), or null.
const clang::FunctionDecl *userCallee(const clang::Stmt *S);

// The arm of Parent (an `if` or a `?:`) that a condition the source's
// constants decide rules out (a macro compared with a number, a constexpr
// value, a template argument in an instantiation; clang's evaluator folds
// the condition whole), or null. It is not in the code nvcc generates:
// `(Z > WARP_SZ) ? __syncthreads() : __syncwarp()` with Z 32 holds no
// barrier.
const clang::Stmt *ruledOutArm(const clang::Stmt *Parent,
                               const clang::ASTContext &Ctx);

// Functions that may execute a block barrier, directly or through their
// callees (bodies in system headers included: cub::BlockReduce::Sum
// synchronises the block), but not in an arm a constant condition rules
// out (ruledOutArm). Memoised; recursion and depth end in "no".
class BarrierSummary {
public:
  // The barrier inside F (or one of its callees) that F may execute, or null.
  const clang::Stmt *barrierIn(const clang::FunctionDecl *F);
  // The barrier S (or a function it calls) may execute, or null.
  const clang::Stmt *barrierIn(const clang::Stmt *S) { return search(S, 0); }

private:
  const clang::Stmt *search(const clang::Stmt *S, unsigned Depth);
  const clang::Stmt *barrierIn(const clang::FunctionDecl *F, unsigned Depth);
  llvm::DenseMap<const clang::FunctionDecl *, const clang::Stmt *> Memo;
  const clang::ASTContext *Ctx = nullptr; // of the functions searched
};

} // namespace warplint
