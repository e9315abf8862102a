; Barriers in device functions are judged in the kernels that call them:
; helpers are inlined (two levels here), a helper's uniform parameter stays
; uniform, a recursive helper is judged on its own and its call sites are
; barrier points of their caller, and a function no kernel calls is judged on
; its own with uniform arguments.
; RUN: %opt -load-pass-plugin=%irplugin -passes='print<warplint-barriers>' -disable-output %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; Work after the branches (the store in each `end` block): threads that skip a
; barrier are still running, not exiting, when the others wait at it.
@after = addrspace(3) global i32 undef

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define void @inner() {
  call void @llvm.nvvm.barrier0()
  ret void
}

define void @outer(i32 %x) {
entry:
  %c = icmp ult i32 %x, 16
  br i1 %c, label %then, label %end
then:
  call void @inner()
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

define i32 @thread() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
}

; outer(tid): the barrier two calls down is partial.
define ptx_kernel void @divergent_argument() {
; CHECK-LABEL: barriers in kernel 'divergent_argument':
; CHECK-NEXT: divergent: __syncthreads() (from 'inner')
; CHECK-NEXT: split by: br %c.i in
; CHECK-NEXT: witness: runs 0 16 (arrivals 1 and 0) (the first reaches it)
entry:
  %t = call i32 @thread()
  call void @outer(i32 %t)
  ret void
}

; outer(n): the same barrier, reached by all.
define ptx_kernel void @uniform_argument(i32 %n) {
; CHECK-LABEL: barriers in kernel 'uniform_argument':
; CHECK-NEXT: uniform: __syncthreads() (from 'inner')
entry:
  call void @outer(i32 %n)
  ret void
}

define void @recursive(i32 %depth) {
entry:
  call void @llvm.nvvm.barrier0()
  %more = icmp sgt i32 %depth, 0
  br i1 %more, label %again, label %end
again:
  %d = sub i32 %depth, 1
  call void @recursive(i32 %d)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; Recursion stops the inliner; the call left is a barrier point, and the
; opaque call's result would be uniform (its argument is).
define ptx_kernel void @recursion() {
; CHECK-LABEL: barriers in kernel 'recursion':
; CHECK-NEXT: uniform: __syncthreads() (from 'recursive')
; CHECK-NEXT: uniform: __syncthreads() in a call to 'recursive'
; CHECK-NEXT: divergent: __syncthreads() (from 'recursive')
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: runs 0 1 (arrivals 1 and 0) (the first reaches it)
; CHECK-NEXT: divergent: __syncthreads() in a call to 'recursive'
; CHECK-NEXT: split by: br %c in %entry
; CHECK-NEXT: witness: runs 0 1 (arrivals 1 and 0) (the first reaches it)
entry:
  call void @recursive(i32 3)
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %then, label %end
then:
  call void @recursive(i32 1)
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}

; Still called by outer, which every kernel inlined: judged on its own too.
; CHECK-LABEL: barriers in function 'inner':
; CHECK-NEXT: uniform: __syncthreads()

; Recursion keeps it called: judged on its own too.
; CHECK-LABEL: barriers in function 'recursive':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: uniform: {{.*}} in a call to 'recursive'

; No kernel calls it here: judged on its own, its argument uniform.
define void @library(i32 %x) {
; CHECK-LABEL: barriers in function 'library':
; CHECK-NEXT: uniform: __syncthreads()
; CHECK-NEXT: divergent: __syncthreads()
; CHECK-NEXT: split by: br %d in
; CHECK-NEXT: witness: lanes 0 16 (the first reaches it)
entry:
  %c = icmp ult i32 %x, 16
  br i1 %c, label %then, label %next
then:
  call void @llvm.nvvm.barrier0()
  br label %next
next:
  %t = call i32 @thread()
  %d = icmp ult i32 %t, 16
  br i1 %d, label %then2, label %end
then2:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  store volatile i32 0, ptr addrspace(3) @after
  ret void
}
