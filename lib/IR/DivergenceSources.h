// Which device IR values can differ between the threads of one thread block:
// the sources of divergence that LLVM's uniformity analysis propagates when
// warplint asks a block-level question (is this barrier reached by all?).
//
// LLVM's UniformityInfo (llvm/ADT/GenericUniformityImpl.h) seeds its
// propagation from TargetTransformInfo::getInstructionUniformity and then
// marks as divergent every value that depends on a divergent value through
// data, through a divergent branch (sync dependence at the join), or through a
// divergent loop exit (temporal divergence). NVPTX's own TTI answers a
// warp-level, codegen question: it calls every device-function argument,
// every generic load and every call result divergent, which is right for
// register allocation and wrong here. This TTI names the thread-varying
// sources only:
//
//  - the thread's position: %tid, %laneid, %lanemask_*, and the clocks;
//  - warp collectives (vote, match, redux, elect, matrix fragments): uniform
//    within a warp at most, never across the block. A shuffle returns some
//    lane's copy of its value: divergent when any operand is, as for any
//    instruction, and uniform when it moves a block-uniform value;
//  - atomics, whose results differ per thread;
//  - loads from private memory (allocas, addrspace 5): each thread has its
//    own copy;
//  - calls to functions without a body that are not known pure, indirect
//    calls, and inline asm with outputs (unless it only reads block-constant
//    special registers).
//
// Not sources: %ctaid, %ntid, %nctaid, %warpsize and cluster ids, kernel and
// device-function arguments, and loads from global, shared, constant or
// generic memory at a uniform address. The last is an assumption: a value in
// memory read at a block-uniform address (a __shared__ flag one thread wrote
// before a barrier) is taken to be the same for every thread. Calls to
// functions with a body that were not inlined are uniform when their
// arguments are (the barrier check judges what it cannot see without
// inventing divergence), unless the body, or what it calls a few levels
// deep, reads one of the sources above (clang's threadIdx.x accessor, left
// out of a kernel too large for the inliner). The results of
// __syncthreads_count/and/or are uniform by definition.
#pragma once
#include "llvm/ADT/Uniformity.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include <functional>

namespace warplint::ir {

// The metadata markUniformByValue puts on the values it proves uniform.
inline constexpr llvm::StringLiteral UniformKind = "warplint.uniform";

// How uniformity treats V on its own, before propagation.
llvm::InstructionUniformity blockUniformityOf(const llvm::Value *V);

// The same question across the whole grid, for a grid barrier: the block's
// position (%ctaid, the cluster's ids) and block-wide reductions differ
// between blocks too, and uniformity by value (idx - tid) does not hold.
llvm::InstructionUniformity gridUniformityOf(const llvm::Value *V);

// Uniformity by value: marks the integer values of F that are the same in
// every thread although computed from the thread index, as the AST layer's
// ThreadDependence does: `idx - tid` with `idx` a loop's induction variable
// that starts at `ctaid * ntid + tid` and steps by a uniform amount (the
// thread index cancels), also per group (`idx / g - tid / g`, with the rest a
// multiple of ntid and g dividing the block). UI is F's uniformity before;
// blockUniformityOf calls the marked values uniform. Whether anything was
// marked (then F's uniformity must be computed again).
//
// With BlockDimX (every launch's blockDim.x, 0 if unknown), also the exit
// test of a block-stride loop `for (i = tid.x; i < N; i += S)`, S ntid.x or
// a constant no smaller than BlockDimX, N a multiple of S: every thread
// runs N / S iterations.
bool markUniformByValue(llvm::Function &F, const llvm::UniformityInfo &UI,
                        const llvm::LoopInfo &LI, unsigned BlockDimX = 0);

// Loads from private memory (a local struct or array SROA could not split,
// such as an object indexed with a loop counter) whose every write gives
// every thread the same bytes where the load reads: each store (memset,
// memcpy from non-private memory) that may overlap them has uniform
// operands and is reached by every thread of the block (ReachedByAll), and
// the object's address is passed nowhere. Field by field, and an array
// field indexed at run time within its bounds: a BlockScan object's
// `temp_storage` pointer beside its thread-dependent `linear_tid`, CUB's
// AgentHistogram `prefer_smem = blockIdx.x & 1` beside per-channel
// pointers. blockUniformityOf calls the marked loads uniform; at grid level
// they stay sources. Whether anything was marked.
bool markUniformPrivateLoads(
    llvm::Function &F, const llvm::UniformityInfo &UI,
    const std::function<bool(const llvm::BasicBlock &)> &ReachedByAll);

// A TargetIRAnalysis whose TTI answers with blockUniformityOf. Register it in
// a FunctionAnalysisManager before PassBuilder's defaults.
llvm::TargetIRAnalysis blockUniformityTargetAnalysis();
// The same with gridUniformityOf, for a FunctionAnalysisManager of its own.
llvm::TargetIRAnalysis gridUniformityTargetAnalysis();

} // namespace warplint::ir
