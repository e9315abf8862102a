// Recognises the block-wide barriers in device IR: what clang emits for
// __syncthreads(), __syncthreads_count/and/or(), __barrier_sync() (which
// cooperative groups' thread_block::sync() calls), the older nvvm barrier
// intrinsics, and inline asm with bar.sync / barrier.sync.
//
// Only barriers that every thread of the block must reach count. A named
// barrier with an explicit thread count (bar.sync id, n) is the tool for
// synchronising part of a block (warp specialisation), and bar.arrive does not
// wait, so neither is reported under divergent control.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace warplint::ir {

// The CUDA spelling of the block-wide barrier CB executes, e.g.
// "__syncthreads()", or nothing when CB is not one.
std::optional<llvm::StringRef> blockBarrierName(const llvm::CallBase &CB);

// Whether F calls a block-wide barrier itself (not through a callee).
bool callsBlockBarrier(const llvm::Function &F);

// True for a barrier whose result is the same for every thread of the block
// (__syncthreads_count/and/or).
bool isBlockReduction(const llvm::Value *V);

} // namespace warplint::ir
