; Control dependence on a divergent branch: the barriers only part of the
; block reaches, through ifs, early returns, loops, switches and nesting, and
; those every thread reaches again after the threads re-converge.
; RUN: %opt -load-pass-plugin=%irplugin -passes='print<warplint-barriers>' -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.trap()

; if (tid >= n) return; __syncthreads(); -- the threads that return have
; exited, and a barrier waits for the non-exited threads only.
define ptx_kernel void @early_return(i32 %n) {
; CHECK-LABEL: barriers in kernel 'early_return':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %out = icmp uge i32 %t, %n
  br i1 %out, label %leave, label %work
leave:
  br label %exit
work:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  ret void
}

; if (tid < 16) __syncthreads(); at the end of the kernel: the others skip it
; with nothing left to run, as if they had returned.
define ptx_kernel void @skipped_at_the_end() {
; CHECK-LABEL: barriers in kernel 'skipped_at_the_end':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %exit
then:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  ret void
}

; The same if with a store after it: the threads that skip the barrier are
; still running when the others wait at it.
define ptx_kernel void @skipped_then_work(ptr %p) {
; CHECK-LABEL: barriers in kernel 'skipped_then_work':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: runs 0 16 (arrivals 1 and 0) (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %exit
then:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  store i32 0, ptr %p
  ret void
}

; A helper's return is not an exit: its caller goes on to the barrier.
define void @helper_return(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %out = icmp uge i32 %t, %n
  br i1 %out, label %leave, label %work
leave:
  br label %exit
work:
  call void @llvm.nvvm.barrier0()
  br label %exit
exit:
  ret void
}

define ptx_kernel void @returns_from_helper(i32 %n) {
; CHECK-LABEL: barriers in kernel 'returns_from_helper':
; CHECK-NEXT: divergent: __syncthreads() (from 'helper_return')
entry:
  call void @helper_return(i32 %n)
  call void @llvm.nvvm.barrier0()
  ret void
}

; for (i = tid; i < n; i += 32) __syncthreads();
define ptx_kernel void @thread_trip_count(i32 %n) {
; CHECK-LABEL: barriers in kernel 'thread_trip_count':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %more in %header
; CHECK-NEXT: witness: runs 0 1 (arrivals 1 and 0) (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %header
header:
  %i = phi i32 [ %t, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 32
  br label %header
exit:
  ret void
}

; A do-while whose exit at the latch depends on the thread.
define ptx_kernel void @divergent_latch(i32 %n) {
; CHECK-LABEL: barriers in kernel 'divergent_latch':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %again in %body
; CHECK-NEXT: witness: runs 2 0 (arrivals 2 and 1) (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 1
  %again = icmp ult i32 %next, %t
  br i1 %again, label %body, label %exit
exit:
  ret void
}

; for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) ...; __syncthreads(); }
define ptx_kernel void @tree_reduction(ptr addrspace(3) %s) {
; CHECK-LABEL: barriers in kernel 'tree_reduction':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %half = lshr i32 %d, 1
  br label %header
header:
  %stride = phi i32 [ %half, %entry ], [ %shr, %join ]
  %more = icmp ugt i32 %stride, 0
  br i1 %more, label %body, label %exit
body:
  %active = icmp ult i32 %t, %stride
  br i1 %active, label %add, label %join
add:
  store i32 1, ptr addrspace(3) %s
  br label %join
join:
  call void @llvm.nvvm.barrier0()
  %shr = lshr i32 %stride, 1
  br label %header
exit:
  ret void
}

; A uniform loop inside a divergent if, with work after it: the closure makes
; its barrier partial.
define ptx_kernel void @uniform_loop_in_divergent_if(i32 %n, ptr %p) {
; CHECK-LABEL: barriers in kernel 'uniform_loop_in_divergent_if':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: lanes 0 64 (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 64
  br i1 %c, label %header, label %exit
header:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %inner, label %exit
inner:
  %odd = icmp eq i32 %n, 3
  br i1 %odd, label %sync, label %latch
sync:
  call void @llvm.nvvm.barrier0()
  br label %latch
latch:
  %next = add i32 %i, 1
  br label %header
exit:
  store i32 0, ptr %p
  ret void
}

; The threads re-converge before the barrier.
define ptx_kernel void @reconverged(ptr addrspace(1) %p) {
; CHECK-LABEL: barriers in kernel 'reconverged':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %join
then:
  store i32 0, ptr addrspace(1) %p
  br label %join
join:
  call void @llvm.nvvm.barrier0()
  ret void
}

define ptx_kernel void @switch(i32 %x) {
; CHECK-LABEL: barriers in kernel 'switch':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: switch %r in %entry
; CHECK-NEXT: witness: runs 0 1 (arrivals 1 and 0) (the first reaches it)
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = urem i32 %t, 4
  switch i32 %r, label %join [ i32 0, label %case0 ]
case0:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %join
join:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

; Threads that trap end the grid: the others all reach the barrier.
define ptx_kernel void @trap_guard() {
; CHECK-LABEL: barriers in kernel 'trap_guard':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bad = icmp ugt i32 %t, 1024
  br i1 %bad, label %abort, label %ok
abort:
  call void @llvm.trap()
  unreachable
ok:
  call void @llvm.nvvm.barrier0()
  ret void
}

; A barrier with a thread count synchronises part of the block on purpose;
; the threads that skip them have work left.
define ptx_kernel void @counted(i32 %x, ptr %p) {
; CHECK-LABEL: barriers in kernel 'counted':
; CHECK-NEXT: divergent: bar.sync
; CHECK-NOT: divergent
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 64
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 64)
  call void asm sideeffect "bar.sync 1, 64;", ""()
  call void asm sideeffect "bar.arrive 2, 64;", ""()
  call void asm sideeffect "bar.sync 0;", ""()
  br label %end
end:
  store i32 0, ptr %p
  ret void
}

; A loop that ends the kernel, its trip count set by the thread: the threads
; that stop early exit, but the others meet the barrier more often than they
; did, so the loop's own exit is not taken as the threads' exit.
define ptx_kernel void @trip_count_at_the_end() {
; CHECK-LABEL: barriers in kernel 'trip_count_at_the_end':
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %more in %header
; CHECK-NEXT: witness: runs 1 0 (arrivals 1 and 0) (the first reaches it)
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = and i32 %t, 3
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 1
  br label %header
exit:
  ret void
}

; for (k < n) { if (tid >= k) break; ... } ending the kernel: a thread-
; dependent break that leads straight to the kernel's end is an exit, like
; a return inside the loop.
; (k starts at 1: from 0, every thread would leave in the first round and
; the folded code would hold no barrier at all.)
define ptx_kernel void @break_at_the_end(i32 %n) {
; CHECK-LABEL: barriers in kernel 'break_at_the_end':
; CHECK-NEXT: uniform: __syncthreads()
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %header
header:
  %k = phi i32 [ 1, %entry ], [ %next, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %check, label %exit
check:
  %done = icmp uge i32 %t, %k
  br i1 %done, label %leave, label %body
leave:
  br label %exit
body:
  call void @llvm.nvvm.barrier0()
  %next = add i32 %k, 1
  br label %header
exit:
  ret void
}
