// RUN: not %warplint --checks='-*,memory-dynamic-shared-optin' --arch=sm_80 %s -- | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,memory-dynamic-shared-optin' --arch=sm_61 %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{warning|error}}:'
// A block gets 48 KB of shared memory (static + dynamic) unless its kernel
// opts in with cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
// n), and never more than the target's opt-in maximum (sm_80: 163 KB; sm_61:
// no opt-in, 48 KB).
#include <cuda_runtime.h>

__global__ void big(float *a) {
  extern __shared__ float s[];
  a[threadIdx.x] = s[threadIdx.x ^ 1];
}
__device__ float stage(float *a) {
  __shared__ float tile[8192]; // 32 KB, in a helper
  tile[threadIdx.x] = a[threadIdx.x];
  return tile[threadIdx.x ^ 1];
}
__global__ void with_static(float *a) {
  extern __shared__ float s[];
  a[threadIdx.x] = stage(a) + s[threadIdx.x];
}
__global__ void late(float *a) {
  extern __shared__ float s[];
  a[threadIdx.x] = s[threadIdx.x];
}
__global__ void opted(float *a) {
  extern __shared__ float s[];
  a[threadIdx.x] = s[threadIdx.x];
}
__global__ void opted_here(float *a) {
  extern __shared__ float s[];
  a[threadIdx.x] = s[threadIdx.x];
}

constexpr size_t SMEM = 64 * 1024;

void setup() {
  cudaFuncSetAttribute(opted, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100000);
}

// Above 48 KB with no opt-in (also through a helper's static tile, through
// cudaLaunchKernel, and with the opt-in only after the launch), and above
// the opt-in maximum.
void positives(float *a, int n) {
  big<<<n, 256, 65536>>>(a);
  // CHECK: :[[@LINE-1]]:17: error: 'big' is launched with 65536 bytes of dynamic shared memory: more than the 49152 bytes a block gets on sm_80 without opting in, so the launch fails; call cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is required to enable dynamic allocations above 48 KB)
  // SM61: :[[@LINE-2]]:17: error: 'big' is launched with 65536 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  big<<<n, 256, SMEM>>>(a);
  // CHECK: :[[@LINE-1]]:17: error: 'big' is launched with 65536 bytes of dynamic shared memory: more than the 49152 bytes a block gets on sm_80 without opting in, so the launch fails; call cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is required to enable dynamic allocations above 48 KB)
  // SM61: :[[@LINE-2]]:17: error: 'big' is launched with 65536 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  with_static<<<n, 256, 20000>>>(a);
  // CHECK: :[[@LINE-1]]:25: error: 'with_static' is launched with 20000 bytes of dynamic shared memory on top of 32768 static, 52768 per block: more than the 49152 bytes a block gets on sm_80 without opting in, so the launch fails; call cudaFuncSetAttribute(with_static, cudaFuncAttributeMaxDynamicSharedMemorySize, 20000) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is required to enable dynamic allocations above 48 KB)
  // SM61: :[[@LINE-2]]:25: error: 'with_static' is launched with 20000 bytes of dynamic shared memory on top of 32768 static, 52768 per block: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  void *args[] = {&a};
  cudaLaunchKernel((const void *)big, dim3(n), dim3(256), args, 50000, 0);
  // CHECK: :[[@LINE-1]]:65: error: 'big' is launched with 50000 bytes of dynamic shared memory: more than the 49152 bytes a block gets on sm_80 without opting in, so the launch fails; call cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 50000) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is required to enable dynamic allocations above 48 KB)
  // SM61: :[[@LINE-2]]:65: error: 'big' is launched with 50000 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  late<<<n, 256, 70000>>>(a);
  // CHECK: :[[@LINE-1]]:18: error: 'late' is launched with 70000 bytes of dynamic shared memory: more than the 49152 bytes a block gets on sm_80 without opting in, so the launch fails; call cudaFuncSetAttribute(late, cudaFuncAttributeMaxDynamicSharedMemorySize, 70000) before it (Volta tuning guide 1.4.3.2: an explicit opt-in is required to enable dynamic allocations above 48 KB)
  // SM61: :[[@LINE-2]]:18: error: 'late' is launched with 70000 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  cudaFuncSetAttribute(late, cudaFuncAttributeMaxDynamicSharedMemorySize, 70000);
  opted<<<n, 256, 300 * 1024>>>(a);
  // CHECK: :[[@LINE-1]]:19: error: 'opted' is launched with 307200 bytes of dynamic shared memory: more than the 166912 bytes a block can have on sm_80 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  // SM61: :[[@LINE-2]]:19: error: 'opted' is launched with 307200 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
}

// Within 48 KB, sizes known at run time, and kernels opted in before the
// launch or in another function (set up once): fine on sm_80.
void negatives(float *a, int n, size_t runtime_bytes) {
  big<<<n, 256, 49152>>>(a);
  with_static<<<n, 256, 16384>>>(a);
  big<<<n, 256, runtime_bytes>>>(a);
  big<<<n, 256>>>(a);
  opted<<<n, 256, 100000>>>(a);
  // SM61: :[[@LINE-1]]:19: error: 'opted' is launched with 100000 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
  cudaFuncSetAttribute(opted_here, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       90000);
  opted_here<<<n, 256, 90000>>>(a);
  // SM61: :[[@LINE-1]]:24: error: 'opted_here' is launched with 90000 bytes of dynamic shared memory: more than the 49152 bytes a block can have on sm_61 even with cudaFuncAttributeMaxDynamicSharedMemorySize; the launch fails
}
