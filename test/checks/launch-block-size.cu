// RUN: rm -rf %t && mkdir -p %t
// RUN: not env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80 %s -- | grep -v "the grid's size is known only at run time" | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_86 %s -- | FileCheck %s --check-prefix=SM86
// RUN: not env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_75 %s -- | FileCheck %s --check-prefix=SM75
// Block sizes judged per target: a multiple of the warp size, within the
// per-block limit, and large enough that the SM's block limit does not cap
// occupancy (sm_80: 32 blocks and 64 warps, so 64 threads; sm_86 and sm_75:
// 16 blocks for 48 and 32 warps, so 96 and 64 threads). Registers come from
// a fixed ptxas report (Inputs/launch-block-size.ptxas: 16 per thread here).
#include <cuda_runtime.h>

__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
template <typename T> __global__ void kt(T *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }

#define THREADS 1056
constexpr int TILE = 16;

void positives(float *a, int n) {
  k<<<n, 100>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 100 threads, not a multiple of the warp size (32): the last warp of every block runs 4 of its 32 lanes, so 28 of the 128 lanes the block occupies (22%) idle on sm_80
  k<<<n, dim3(10, 10)>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 100 threads (10x10), not a multiple of the warp size (32): the last warp of every block runs 4 of its 32 lanes, so 28 of the 128 lanes the block occupies (22%) idle on sm_80
  const int threads = 48;
  k<<<n, threads>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 48 threads, not a multiple of the warp size (32): the last warp of every block runs 16 of its 32 lanes, so 16 of the 64 lanes the block occupies (25%) idle on sm_80
  k<<<n, 2048>>>(a);
  // CHECK: :[[@LINE-1]]:10: error: 'k' is launched with blocks of 2048 threads, more than the 1024 threads a block may have on sm_80: the launch fails (cudaErrorInvalidConfiguration)
  k<<<n, THREADS>>>(a);
  // CHECK: :[[@LINE-1]]:10: error: 'k' is launched with blocks of 1056 threads, more than the 1024 threads a block may have on sm_80: the launch fails (cudaErrorInvalidConfiguration)
  dim3 big(32, 32, 2);
  k<<<n, big>>>(a);
  // CHECK: :[[@LINE-1]]:10: error: 'k' is launched with blocks of 2048 threads (32x32x2), more than the 1024 threads a block may have on sm_80: the launch fails (cudaErrorInvalidConfiguration)
  k<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks, so at most 32 of its 64 warps (50% occupancy) are resident, the block limit binding before registers and shared memory (16 registers per thread (ptxas), 1024 bytes of shared memory per block); blocks of 64 threads, with the same registers and shared memory per block, reach 64 warps (100%)
  // SM75: :[[@LINE-2]]:10: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_75: it holds at most 16 blocks, so at most 16 of its 32 warps (50% occupancy) are resident, the block limit binding before registers and shared memory (16 registers per thread (ptxas), 0 bytes of shared memory per block); blocks of 64 threads, with the same registers and shared memory per block, reach 32 warps (100%)
  // SM86: :[[@LINE-3]]:10: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_86: it holds at most 16 blocks, so at most 16 of its 48 warps (33% occupancy) are resident, the block limit binding before registers and shared memory (16 registers per thread (ptxas), 1024 bytes of shared memory per block); blocks of 96 threads, with the same registers and shared memory per block, reach 48 warps (100%)
  kt<float><<<n, 31>>>(a);
  // CHECK: :[[@LINE-1]]:18: warning: 'kt' is launched with blocks of 31 threads, not a multiple of the warp size (32): the last warp of every block runs 31 of its 32 lanes, so 1 of the 32 lanes the block occupies (3%) idle on sm_80
  void *args[] = {&a};
  cudaLaunchKernel((const void *)k, dim3(n), dim3(2000), args, 0, 0);
  // CHECK: :[[@LINE-1]]:46: error: 'k' is launched with blocks of 2000 threads, more than the 1024 threads a block may have on sm_80: the launch fails (cudaErrorInvalidConfiguration)
  cudaLaunchKernel(k, dim3(n), dim3(40), args, 0, 0);
  // CHECK: :[[@LINE-1]]:32: warning: 'k' is launched with blocks of 40 threads, not a multiple of the warp size (32): the last warp of every block runs 8 of its 32 lanes, so 24 of the 64 lanes the block occupies (38%) idle on sm_80
}

// Multiples of the warp size within the limits, sizes known only at run time
// (a parameter, a variable assigned again): nothing to say.
void negatives(float *a, int n, int runtime_threads) {
  k<<<n, 256>>>(a);
  k<<<n, dim3(TILE, TILE)>>>(a);
  k<<<n, runtime_threads>>>(a);
  k<<<n, 1024>>>(a);
  dim3 block(32, 8);
  k<<<n, block>>>(a);
  k<<<n, 128>>>(a);
  int changes = 100;
  changes = runtime_threads;
  k<<<n, changes>>>(a);
  k<<<1, 1>>>(a);   // a serial kernel
  k<<<1, 100>>>(a); // one block: no SM to fill, its shape is the algorithm's
  k<<<n, 1>>>(a);
  k<<<n, 64>>>(a); // full occupancy on sm_80 and sm_75, not on sm_86
  // SM75-NOT: :[[@LINE-1]]:10: warning
  // SM86: :[[@LINE-2]]:10: warning: 'k' is launched with blocks of 64 threads, too small to fill an SM on sm_86: it holds at most 16 blocks, so at most 32 of its 48 warps (67% occupancy) are resident, the block limit binding before registers and shared memory (16 registers per thread (ptxas), 1024 bytes of shared memory per block); blocks of 96 threads, with the same registers and shared memory per block, reach 48 warps (100%)
}


// cudaLaunchKernelEx: the shape is the launch configuration's fields, set
// once in the function (its initialiser, or one assignment).
__global__ void kx(float *a, int n) { a[blockIdx.x * blockDim.x + threadIdx.x] = n; }
void launch_ex(float *a, int n, int threads) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n);
  cfg.blockDim = dim3(100);
  cudaLaunchKernelEx(&cfg, kx, a, n);
  // CHECK: :[[@LINE-2]]:18: warning: 'kx' is launched with blocks of 100 threads, not a multiple of the warp size (32): the last warp of every block runs 4 of its 32 lanes, so 28 of the 128 lanes the block occupies (22%) idle on sm_80
  cudaLaunchConfig_t big = {dim3(n), dim3(2048), 0, 0, nullptr, 0};
  cudaLaunchKernelEx(&big, kx, a, n);
  // CHECK: :[[@LINE-2]]:38: error: 'kx' is launched with blocks of 2048 threads, more than the 1024 threads a block may have on sm_80: the launch fails (cudaErrorInvalidConfiguration)

  // Negatives: a good shape, a field written twice, a runtime size.
  cudaLaunchConfig_t fine = {};
  fine.gridDim = n;
  fine.blockDim = 256;
  cudaLaunchKernelEx(&fine, kx, a, n);
  cudaLaunchConfig_t twice = {};
  twice.gridDim = n;
  twice.blockDim = 96;
  twice.blockDim.x = 100;
  cudaLaunchKernelEx(&twice, kx, a, n);
  cudaLaunchConfig_t runtime = {};
  runtime.gridDim = n;
  runtime.blockDim = dim3(threads);
  cudaLaunchKernelEx(&runtime, kx, a, n);
}
