// When clang's code generation fails inside the IR layer, the IR layer's
// findings of the file are missing: a warning on stderr names the file and
// says why, and the AST findings stand (here divergence-subwarp-branch's
// AST verdict, which the IR layer's optimised view would have refined).
//
// A code generator error that Sema does not see: a builtin of sm_80 called
// in code compiled for sm_70 (clang checks a builtin's target features when
// it generates the call). The file parses, so the exit status is that of
// its findings.
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,divergence-subwarp-branch,divergence-barrier' --arch=sm_70 %s -- -std=c++17 -DREDUX 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,REDUX --implicit-check-not=warning: --implicit-check-not=error:
// An LLVM fatal error (report_fatal_error, "LLVM ERROR: ...") inside the
// code generator, injected through a debug variable for this file only
// (the kind that calls exit(1), which would end the whole run): the same
// warning with its reason, the other file of the run analysed in full, IR
// layer included.
// RUN: env WARPLINT_DEBUG_IR_FATAL_ERROR=codegen-failure %warplint --cuda-path=%cudapath -j 2 --checks='-*,divergence-subwarp-branch,divergence-barrier' --arch=sm_80 %s %S/Inputs/codegen-ok.cu -- -std=c++17 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FATAL --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='LLVM ERROR'
// Without a failure: no warning, and the IR layer judges the branch.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,divergence-subwarp-branch,divergence-barrier' --arch=sm_80 %s -- -std=c++17 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OK --implicit-check-not=warning: --implicit-check-not=error:

// REDUX: warplint: warning: {{.*}}codegen-failure.cu: the IR layer's code generation failed ({{[0-9]+}}:{{[0-9]+}}: '__nvvm_redux_sync_add' needs target feature {{.*}}) for sm_70; its findings for this file are missing (divergence-barrier's IR verdicts, the optimised view of the memory checks and divergence-subwarp-branch), the AST findings stand
// FATAL: warplint: warning: {{.*}}codegen-failure.cu: the IR layer's code generation stopped (injected by WARPLINT_DEBUG_IR_FATAL_ERROR) for sm_80; its findings for this file are missing

__global__ void split(float *a, const float *b, int n) {
  float v = b[threadIdx.x];
  if (threadIdx.x & 1) {
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  } else {
    for (int k = 0; k < n; ++k)
      v = v / b[k] - 1.0f;
  }
  a[threadIdx.x] = v;
}
// CHECK: codegen-failure.cu:[[@LINE-9]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x & 1'
// CHECK: codegen-failure.cu:[[@LINE-10]]:24: note: cost: the warp executes both sides, 2 statement(s) then 2, with part of its lanes idle in each
// OK: codegen-failure.cu:[[@LINE-11]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x & 1'
// OK: codegen-failure.cu:[[@LINE-12]]:24: note: cost at -O3: the warp runs both sides, {{[0-9]+}} and {{[0-9]+}} instructions, with part of its lanes idle in each

// FATAL: codegen-ok.cu:5:7: warning: branch splits the lanes of a warp: 'threadIdx.x & 1'
// FATAL: codegen-ok.cu:5:24: note: cost at -O3: 16 of 32 lanes idle

#ifdef REDUX
__global__ void redux(int *a) { a[0] = __nvvm_redux_sync_add(a[1], 0xffffffff); }
#endif
