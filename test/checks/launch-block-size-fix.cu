// RUN: rm -rf %t && mkdir -p %t
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80 --format=json %s -- | FileCheck %s --check-prefix=JSON
// RUN: cp %s %t/fix.cu && env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --fix --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80 %t/fix.cu -- > /dev/null
// RUN: %strip-checks %t/fix.cu > %t/fixed.cu && FileCheck %s --check-prefix=FIXED --input-file=%t/fixed.cu
// RUN: %clangxx -x cuda --cuda-host-only -fsyntax-only --cuda-path=%cudapath -Wno-unknown-cuda-version -std=c++17 %t/fixed.cu
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80 %t/fixed.cu -- | FileCheck %s --check-prefix=AFTER --implicit-check-not='{{warning|error}}:'
// launch-block-size's fix-it writes the suggested block size at a launch of
// literals whose grid is the ceiling division by the same literal, so that
// the grid still covers the data: the block and the grid change together.
// Registers: Inputs/launch-block-size.ptxas (k: 16 registers).
#include <cuda_runtime.h>

__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }

static int iDivUp(int a, int b) { return (a + b - 1) / b; }

void run(float *a, int n) {
  k<<<(n + 31) / 32, 32>>>(a);
  // FIXED: k<<<(n + 63) / 64, 64>>>(a);
  k<<<iDivUp(n, 32), 32>>>(a);
  // FIXED: k<<<iDivUp(n, 64), 64>>>(a);
  // No fix-it: the grid is not written from the block's literal.
  k<<<n / 8, 32>>>(a);
  // FIXED: k<<<n / 8, 32>>>(a);
}

// JSON: "check": "launch-block-size"
// JSON: "fixes": [
// JSON: "replacement": "64"
// AFTER: warning: 'k' is launched with blocks of 32 threads
