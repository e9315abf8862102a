// RUN: not %warplint --checks='-*,memory-shared-capacity' --arch=sm_80 %s -- | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,memory-shared-capacity' --arch=sm_61 %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{warning|error|note}}:'
// Static shared memory per block, the kernel's and its callees': above 48 KB
// it does not build (nvcc: 'uses too much shared data'); above a third of
// the SM's capacity, few blocks fit (sm_80: 164 KB per SM; sm_61: 96 KB).
#include <cuda_runtime.h>

__device__ float helper_tile(float *a) {
  __shared__ float extra[4096]; // 16 KB
  extra[threadIdx.x] = a[threadIdx.x];
  return extra[threadIdx.x ^ 1];
}

__global__ void too_big(float *a) {
  // CHECK: :[[@LINE-1]]:17: error: kernel 'too_big' holds 65536 bytes of static __shared__ memory per block (its own and its callees'), more than the 49152 bytes static shared memory may take on sm_80: it does not build for that target (Maxwell tuning guide 1.4.3.1: 'the per-thread-block limit remains 48 KB'); move the largest arrays to dynamic shared memory (extern __shared__) with the cudaFuncAttributeMaxDynamicSharedMemorySize opt-in
  // SM61: :[[@LINE-2]]:17: error: kernel 'too_big' holds 65536 bytes of static __shared__ memory per block (its own and its callees'), more than the 49152 bytes static shared memory may take on sm_61: it does not build for that target (Maxwell tuning guide 1.4.3.1: 'the per-thread-block limit remains 48 KB'); move the largest arrays to dynamic shared memory (extern __shared__) with the cudaFuncAttributeMaxDynamicSharedMemorySize opt-in
  __shared__ float tile[12288]; // 48 KB
  // CHECK: :[[@LINE-1]]:20: note: 'tile' alone takes 49152 bytes
  // SM61: :[[@LINE-2]]:20: note: 'tile' alone takes 49152 bytes
  tile[threadIdx.x] = helper_tile(a);
  a[threadIdx.x] = tile[threadIdx.x ^ 1];
}

__global__ void large(float *a) {
  // SM61: :[[@LINE-1]]:17: warning: kernel 'large' holds 40000 bytes of static __shared__ memory per block (40192 as allocated): an SM of sm_61, with 98304 bytes, fits at most 2 of its blocks whatever their size (Maxwell tuning guide 1.4.3.1 recommends at most 32 KB per block, so that at least two fit)
  __shared__ double tile[5000]; // 40000 bytes
  tile[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = tile[threadIdx.x ^ 1];
}

__global__ void twice(float *a) {
  // The helper's tile is one allocation, however often it is called.
  a[threadIdx.x] = helper_tile(a) + helper_tile(a + 1);
}

__global__ void small(float *a) {
  __shared__ float tile[256];
  tile[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = tile[threadIdx.x ^ 1];
}

__global__ void dynamic_only(float *a) {
  extern __shared__ float dyn[];
  a[threadIdx.x] = dyn[threadIdx.x];
}
