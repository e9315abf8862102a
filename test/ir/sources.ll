; The divergence sources of a block-level question: which values may differ
; between the threads of one block. Each kernel branches on one value and
; synchronises inside the branch; the printer says whether that barrier is
; reached by part of the block (divergent) or by all of it (uniform).
; RUN: %opt -load-pass-plugin=%irplugin -passes='print<warplint-barriers>' -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; Work after the branches (the store in each `end` block): threads that skip a
; barrier are still running, not exiting, when the others wait at it.
@after = addrspace(3) global i32 undef

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.clock()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)
declare i32 @opaque(i32)
declare float @__nv_sqrtf(float)

define ptx_kernel void @tid(ptr %p) {
; CHECK-LABEL: barriers in kernel 'tid':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: runs 0 16 (arrivals 1 and 0) (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

define ptx_kernel void @laneid(ptr %p) {
; CHECK-LABEL: barriers in kernel 'laneid':
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

define ptx_kernel void @clock(ptr %p) {
; CHECK-LABEL: barriers in kernel 'clock':
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.clock()
  %c = icmp ugt i32 %t, 1000
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; The block's own coordinates and the kernel's arguments are uniform.
define ptx_kernel void @block_coordinates(i32 %n) {
; CHECK-LABEL: barriers in kernel 'block_coordinates':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %b, %d
  %c = icmp ult i32 %m, %n
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; A shuffle moves some lane's copy of its value: uniform when the value is.
define ptx_kernel void @shuffle(i32 %x) {
; CHECK-LABEL: barriers in kernel 'shuffle':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %d in %next
; CHECK-NEXT: witness: none
entry:
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 0, i32 31)
  %c = icmp eq i32 %s, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 0, i32 31)
  %d = icmp eq i32 %v, 0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; A vote is at best uniform within a warp, never across the block.
define ptx_kernel void @vote(i1 %x) {
; CHECK-LABEL: barriers in kernel 'vote':
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %s = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %x)
  %c = icmp eq i32 %s, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

define ptx_kernel void @atomic(ptr addrspace(1) %counter) {
; CHECK-LABEL: barriers in kernel 'atomic':
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic
  %c = icmp eq i32 %old, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; A value read from global or shared memory at a uniform address is taken as
; the same for every thread; private memory is each thread's own, here
; written with the thread index.
define ptx_kernel void @memory(ptr addrspace(1) %g, i32 %i) {
; CHECK-LABEL: barriers in kernel 'memory':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %local = alloca [4 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %local
  %v = load i32, ptr addrspace(1) %g
  %c = icmp eq i32 %v, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %slot = getelementptr [4 x i32], ptr %local, i32 0, i32 %i
  %w = load i32, ptr %slot
  %d = icmp eq i32 %w, 0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; Private memory that every thread writes with the same values: a struct
; whose flag field holds a block-uniform value (CUB's AgentHistogram keeps
; `prefer_smem = blockIdx.x & 1` beside per-thread fields), read back at a
; constant offset. The thread-dependent field beside it does not overlap the
; flag; a read of the whole array through a run-time index does.
define ptx_kernel void @private_copies(i32 %i) {
; CHECK-LABEL: barriers in kernel 'private_copies':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %agent = alloca { i32, [4 x i32], i8 }, align 4
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %odd = and i32 %ctaid, 1
  %flag = trunc i32 %odd to i8
  %flag.addr = getelementptr { i32, [4 x i32], i8 }, ptr %agent, i32 0, i32 2
  store i8 %flag, ptr %flag.addr
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane.addr = getelementptr inbounds { i32, [4 x i32], i8 }, ptr %agent, i32 0, i32 1, i32 %i
  store i32 %tid, ptr %lane.addr
  %f = load i8, ptr %flag.addr
  %c = icmp eq i8 %f, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %any.addr = getelementptr inbounds { i32, [4 x i32], i8 }, ptr %agent, i32 0, i32 1, i32 %i
  %any = load i32, ptr %any.addr
  %d = icmp eq i32 %any, 0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; An array field decayed to a pointer and indexed at run time (cub's
; raking scan writes `cached_segment[i]` through `&cached_segment[1]`):
; C++ keeps the index within that array, so the write does not reach the
; pointer field beside it, and a load of that field stays uniform. A
; thread's index through a pointer that names no array is unbounded and may
; reach it.
define ptx_kernel void @private_decayed_array(i32 %i) {
; CHECK-LABEL: barriers in kernel 'private_decayed_array':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
entry:
  %agent = alloca { ptr, i32, [4 x i32] }, align 8
  store ptr addrspacecast (ptr addrspace(3) @after to ptr), ptr %agent
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %seg = getelementptr inbounds { ptr, i32, [4 x i32] }, ptr %agent, i32 0, i32 2
  %seg1 = getelementptr inbounds i32, ptr %seg, i64 1
  %k = sext i32 %i to i64
  %slot = getelementptr inbounds i32, ptr %seg1, i64 %k
  store i32 %tid, ptr %slot
  %p = load ptr, ptr %agent
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %kt = zext i32 %tid to i64
  %raw = getelementptr inbounds i8, ptr %agent, i64 %kt
  store i8 1, ptr %raw
  %tid.addr = getelementptr inbounds { ptr, i32, [4 x i32] }, ptr %agent, i32 0, i32 1
  store i32 %tid, ptr %tid.addr
  %q = load ptr, ptr %agent
  %w = load i32, ptr %q
  %d = icmp eq i32 %w, 0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; The last write before a load on the one path into it decides what the
; load reads: cub's `block_aggregate = temp_storage.block_aggregate;` after
; the barrier overwrites what the raking threads stored under their own
; condition. A load before that write may read a raking thread's value.
define ptx_kernel void @private_last_write(i32 %i) {
; CHECK-LABEL: barriers in kernel 'private_last_write':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %d in %join
; CHECK-NEXT: witness: none
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %agg = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %raking = icmp ult i32 %tid, 32
  br i1 %raking, label %rake, label %join
rake:
  %slot = getelementptr inbounds [2 x i32], ptr %agg, i32 0, i32 %i
  store i32 %tid, ptr %slot
  br label %join
join:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %b = load i32, ptr %agg
  %d = icmp sgt i32 %b, 256
  br i1 %d, label %then2, label %next
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %shared = load i32, ptr addrspace(3) @after
  store i32 %shared, ptr %agg
  %a = load i32, ptr %agg
  %c = icmp sgt i32 %a, 256
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; A function without a body may read the thread's position; libdevice's
; math is pure.
define ptx_kernel void @calls(i32 %x, float %f) {
; CHECK-LABEL: barriers in kernel 'calls':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: data 0 1
; CHECK: uniform: __syncthreads()
entry:
  %r = call i32 @opaque(i32 %x)
  %c = icmp eq i32 %r, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %s = call float @__nv_sqrtf(float %f)
  %d = fcmp ogt float %s, 1.0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; Inline asm that reads a per-thread register differs between threads; one
; that reads a block-constant register, or computes from uniform operands
; (bfind in cuda-samples' cdpBitonicSort), does not.
define ptx_kernel void @inline_asm() {
; CHECK-LABEL: barriers in kernel 'inline_asm':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK: uniform: __syncthreads()
entry:
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %c = icmp eq i32 %l, 0
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %next
next:
  %o = call i64 asm "mov.u64 $0, %reserved_smem_offset_1;", "=l"()
  %d = icmp eq i64 %o, 0
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; __syncthreads_count() gives every thread the same count.
define ptx_kernel void @block_reduction() {
; CHECK-LABEL: barriers in kernel 'block_reduction':
; CHECK-NEXT: uniform: __syncthreads_count()
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = icmp ult i32 %t, 5
  %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %p)
  %c = icmp eq i32 %n, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

define ptx_kernel void @asm_from_uniform(i32 %len) {
; CHECK-LABEL: barriers in kernel 'asm_from_uniform':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %b = call i32 asm "bfind.u32 $0, $1;", "=r,r"(i32 %len)
  %c = icmp eq i32 %b, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}
