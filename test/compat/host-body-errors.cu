// Errors that lie only in host function bodies do not cost the device
// analysis its findings: clang's device-side parse rejects an initialised
// variable-sized array in host code (cuda-samples' imageKernels.cu), which
// the host compiler nvcc hands it to accepts, and after an error clang
// generates no device code, so the IR layer would not run. The file is
// parsed again without that body; a warning names it; the error stands
// (exit 2); the kernels are judged in full, IR layer included, and so are
// the other host functions. An error in device code as well: no second
// parse.
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-shared-bank-conflict,memory-uncoalesced-access,host-transfer-in-loop' --arch=sm_80 %s -- > %t.out 2> %t.err; test $? -eq 2
// RUN: FileCheck %s < %t.out --implicit-check-not=memory-shared-bank-conflict
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// Without the IR layer the merged pair is two 2-way loads: the IR layer ran
// on the second parse (the test can fail).
// RUN: not %warplint --ir-layer=false --cuda-path=%cudapath --checks='-*,memory-shared-bank-conflict' --arch=sm_80 %s -- 2>&1 | FileCheck %s --check-prefix=AST --implicit-check-not=memory-shared-bank-conflict
// Plain clang rejects the file.
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: variable-sized object may not be initialized
// With several targets the second parse stands for them all, as a clean
// one would.
// RUN: not %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_75,sm_90 --print-parses %s -- 2>&1 | FileCheck %s --check-prefix=MULTI
// MULTI: one parse, for sm_75
// An error in a kernel as well: the errors, exit 2, and no warning.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -DDEVICE_ERROR > %t.dev 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=DEVICE < %t.dev --implicit-check-not="analysed without"
// DEVICE-DAG: variable-sized object may not be initialized [clang-diagnostic-error]
// DEVICE-DAG: use of undeclared identifier 'undeclared' [clang-diagnostic-error]
#include <cuda_runtime.h>

// clang-format off
// WARN: warplint: warning: {{.*}}host-body-errors.cu:[[#@LINE+1]]:6: clang's device-side parse rejects the body of host function 'launch' ([[#@LINE+2]]:{{[0-9]+}}: variable-sized object may not be initialized); the rest of the file was analysed without that body, its device code in full
void launch(int planes, float *d) {
  cudaSurfaceObject_t objects[planes] = {0};
  // CHECK: host-body-errors.cu:[[@LINE-1]]:{{[0-9]+}}: error: variable-sized object may not be initialized [clang-diagnostic-error]
  (void)objects;
}

// One ld.shared.v2.f32 after -O3 (nvcc aligns extern __shared__ to 16):
// conflict-free, as the IR layer sees and, the function's only __shared__
// array being where ptxas lays it out aligned, the source analysis too.
__global__ void pairs(float *out) {
  extern __shared__ float ext[];
  int t = threadIdx.x;
  ext[t] = out[t];
  ext[t + blockDim.x] = out[t + blockDim.x];
  __syncthreads();
  out[t] = ext[2 * t] - ext[2 * t + 1];
  // AST: host-body-errors.cu:[[@LINE-15]]:31: error: variable-sized object may not be initialized
}

__global__ void strided(float *a) {
  // CHECK: host-body-errors.cu:[[@LINE+2]]:3: warning: {{.*}}[memory-uncoalesced-access]
  // MULTI: host-body-errors.cu:[[#@LINE+1]]:3: warning: {{.*}} on sm_75 and sm_90: {{.*}}[memory-uncoalesced-access]
  a[threadIdx.x * 32] = 0.0f;
#ifdef DEVICE_ERROR
  undeclared = 1;
#endif
}

void copies(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    strided<<<4096, 32>>>(d);
    // CHECK: host-body-errors.cu:[[@LINE+1]]:5: note: blocking cudaMemcpy {{.*}}[host-transfer-in-loop]
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
  }
}
