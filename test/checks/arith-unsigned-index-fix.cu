// RUN: %warplint --checks='-*,arith-unsigned-index' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
// RUN: cp %s %t.cu && %warplint --fix --checks='-*,arith-unsigned-index' --arch=sm_80 %t.cu -- -std=c++17 > /dev/null
// RUN: %strip-checks %t.cu > %t.fixed.cu && FileCheck %s --check-prefix=FIXED --input-file=%t.fixed.cu
// RUN: %clangxx -x cuda --cuda-device-only -O3 -S -emit-llvm --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib -Wno-unknown-cuda-version -std=c++17 -o - %t.fixed.cu | FileCheck %s --check-prefix=IR
// RUN: %warplint --checks='-*,arith-unsigned-index' --arch=sm_80 %t.fixed.cu -- -std=c++17 | FileCheck %s --check-prefix=AFTER --implicit-check-not='{{warning|error}}:'
// arith-unsigned-index's fix-it declares int what the message names, when
// every declaration to change is a local of the kernel: a parameter is its
// callers' interface, and a declaration shared with a variable the fix
// does not name would change that one too.
#include <cuda_runtime.h>

__global__ void counter(const float *in, float *out, int n) {
  float s = 0;
  for (unsigned i = threadIdx.x; i < n; i += 32)
    s += in[i * 4];
  out[threadIdx.x] = s;
  // FIXED: for (int i = threadIdx.x; i < n; i += 32)
}

__global__ void twoLocals(const float *in, float *out, int per) {
  unsigned base = blockIdx.x * per;
  for (unsigned j = 0; j < per; j++)
    out[base + j] = in[base + j];
  // FIXED: int base = blockIdx.x * per;
  // FIXED: for (int j = 0; j < per; j++)
}

// Only the counter: the bound is compared, not part of the index.
__global__ void bound(const float *in, float *out, unsigned m) {
  for (unsigned k = 0; k < m; k++)
    out[k] = in[k * 2];
  // FIXED: for (int k = 0; k < m; k++)
}

// No fix-it: the index needs the parameter 's' declared int too.
__global__ void parameter(const float *in, float *out, unsigned s) {
  for (unsigned k = 0; k < 1000; k++)
    out[k] = in[k * s];
  // FIXED: for (unsigned k = 0; k < 1000; k++)
}

// JSON: "check": "arith-unsigned-index"
// JSON: "fixes": [
// JSON: "replacement": "int"
// IR: define {{.*}}counter
// AFTER: note: 'k * s' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'k'
