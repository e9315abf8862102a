// Errors that lie only in host function bodies do not cost the device
// analysis its findings: clang's device-side parse rejects an initialised
// variable-sized array in host code (cuda-samples' imageKernels.cu), which
// the host compiler nvcc hands it to accepts. The file is parsed again
// without that body; a warning names it; the kernels are judged, and so are
// the other host functions. An error in device code, or one outside any
// host body, stays an error.
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access,host-transfer-in-loop' --arch=sm_80 %s -- > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=WARN < %t.err --implicit-check-not=error:
// Plain clang rejects the file (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: variable-sized object may not be initialized
// With several targets the retried parse stands for them all, as a clean
// one would.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_75,sm_90 --print-parses %s -- 2>&1 | FileCheck %s --check-prefix=MULTI --implicit-check-not=error:
// MULTI: one parse, for sm_75
// An error in a kernel as well: the file's errors are reported, exit 2.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -DDEVICE_ERROR > %t.dev 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=DEVICE < %t.dev
// DEVICE-DAG: variable-sized object may not be initialized [clang-diagnostic-error]
// DEVICE-DAG: use of undeclared identifier 'undeclared' [clang-diagnostic-error]
#include <cuda_runtime.h>

// clang-format off
// WARN: warplint: warning: {{.*}}host-body-errors.cu:[[#@LINE+1]]:6: clang's device-side parse rejects the body of host function 'launch' ([[#@LINE+2]]:{{[0-9]+}}: variable-sized object may not be initialized); the file was analysed without that body: its device code in full, that function not at all
void launch(int planes, float *d) {
  cudaSurfaceObject_t objects[planes] = {0};
  (void)objects;
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
    strided<<<1, 32>>>(d);
    // CHECK: host-body-errors.cu:[[@LINE+1]]:5: note: blocking cudaMemcpy {{.*}}[host-transfer-in-loop]
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
  }
}
