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
// inventing divergence). The results of __syncthreads_count/and/or are
// uniform by definition.
#pragma once
#include "llvm/ADT/Uniformity.h"
#include "llvm/Analysis/TargetTransformInfo.h"

namespace warplint::ir {

// How uniformity treats V on its own, before propagation.
llvm::InstructionUniformity blockUniformityOf(const llvm::Value *V);

// A TargetIRAnalysis whose TTI answers with blockUniformityOf. Register it in
// a FunctionAnalysisManager before PassBuilder's defaults.
llvm::TargetIRAnalysis blockUniformityTargetAnalysis();

} // namespace warplint::ir
