// RUN: %warplint --checks='-*,divergence-subwarp-branch' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,divergence-subwarp-branch' --arch=sm_80 --config-file=%S/Inputs/single-lane.yaml %s -- -std=c++17 | FileCheck %s --check-prefix=OPTION
#include <cuda_runtime.h>

// ---- positives

__global__ void pascal_example(float *a) {
  if (threadIdx.x > 2)
    a[threadIdx.x] = 1.0f;
  else
    a[threadIdx.x] = 2.0f;
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x > 2' sends lanes 3-31 one way and lanes 0-2 the other in warp 0; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // CHECK: :[[@LINE-4]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
}

__global__ void parity(float *a) {
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x] *= 2.0f;
  // CHECK: :[[@LINE-2]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x % 2 == 0' sends the 16 even lanes one way and the 16 odd lanes the other in every warp
  // CHECK: :[[@LINE-2]]:5: note: cost: 16 of 32 lanes idle while the others run the 1 statement(s) of the branch
  if (threadIdx.x & 1)
    a[threadIdx.x] += 1.0f;
  // CHECK: :[[@LINE-2]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x & 1' sends the 16 odd lanes one way and the 16 even lanes the other in every warp
  // CHECK: :[[@LINE-2]]:5: note: cost: 16 of 32 lanes idle
}

__device__ int lane_id() { return threadIdx.x % 32; }

__global__ void half_warp(float *a) {
  int lane = lane_id();
  if (lane < 16) {
    a[threadIdx.x] += 1.0f;
    a[threadIdx.x] *= 3.0f;
  }
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'lane < 16' sends lanes 0-15 one way and lanes 16-31 the other in every warp
  // CHECK: :[[@LINE-5]]:18: note: cost: 16 of 32 lanes idle while the others run the 2 statement(s) of the branch
}

// A 16x16 block puts two rows of threadIdx.x in each warp.
__global__ void two_d(float *a) {
  if (threadIdx.x < 8)
    a[threadIdx.y * 16 + threadIdx.x] = 0.0f;
  // CHECK: :[[@LINE-2]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x < 8' sends lanes 0-7, 16-23 one way and lanes 8-15, 24-31 the other in all 8 warps of the block
  // CHECK: :[[@LINE-2]]:5: note: cost: 16 of 32 lanes idle
}
void launch_two_d(float *a) { two_d<<<1, dim3(16, 16)>>>(a); }

__global__ void thread_loop(float *a) {
  for (int k = 0; k < (int)threadIdx.x % 4; ++k)
    a[threadIdx.x] += k;
  // CHECK: :[[@LINE-2]]:19: warning: loop trip count differs between the lanes of a warp: its bound '(int)threadIdx.x % 4' ranges from 0 to 3 in warp 0; the warp keeps iterating until its last lane is done
}

__global__ void switch_lanes(float *a) {
  switch (threadIdx.x % 3) {
  // CHECK: :[[@LINE-1]]:11: warning: branch splits the lanes of a warp: 'threadIdx.x % 3' takes 3 different values in every warp
  case 0:
    a[0] = 1.0f;
    break;
  default:
    break;
  }
}

__device__ float work(float x) { return x * 2.0f; }

__global__ void ternary_and_logical(float *a) {
  float v = (threadIdx.x % 4 == 0) ? work(a[0]) : work(a[1]);
  // CHECK: :[[@LINE-1]]:13: warning: branch splits the lanes of a warp: '(threadIdx.x % 4 == 0)' sends 8 lanes one way and 24 lanes the other in every warp
  bool ok = threadIdx.x % 8 == 1 && work(v) > 0.0f;
  // CHECK: :[[@LINE-1]]:13: warning: branch splits the lanes of a warp: 'threadIdx.x % 8 == 1' sends 4 lanes one way and 28 lanes the other in every warp
  a[threadIdx.x] = ok ? v : 0.0f; // a select: no branch
}

// Harris' interleaved reduction: the first iterations split every warp.
__global__ void interleaved_reduction(float *a) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (tid % (2 * k) == 0)
      s[tid] += s[tid + k];
    // CHECK: :[[@LINE-2]]:9: warning: branch splits the lanes of a warp: 'tid % (2 * k) == 0' sends the 16 even lanes one way and the 16 odd lanes the other in every warp when k = 1 (the first iteration of the loop)
    // CHECK: :[[@LINE-2]]:7: note: cost: 16 of 32 lanes idle
    __syncthreads();
  }
}

// ---- negatives

__global__ void fine(float *a, int n, const int *flags) {
  unsigned tid = threadIdx.x;
  int lane = tid % 32, warp = tid / 32;
  if (tid / 32 > 2)           // the Pascal deep dive's fix: whole warps
    a[tid] = 0.0f;
  if (warp == 1)              // a warp id
    a[tid] = 1.0f;
  if (tid < 64)               // a multiple of the warp size
    a[tid] = 2.0f;
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n)                  // tail guard against a run-time bound
    a[i] = 3.0f;
  if (blockIdx.x == 0)        // block-uniform
    a[tid] = 4.0f;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)
    if (tid < s)              // tree reduction: s unknown here
      a[tid] += a[tid + s];
  for (int j = i; j < n; j += blockDim.x * gridDim.x) // grid-stride loop
    a[j] = 5.0f;
  if (flags[tid])             // data-dependent: not provable
    a[tid] = 6.0f;
  float v = lane < 16 ? a[0] : a[1]; // a select
  v += threadIdx.x < 8 ? a[threadIdx.x] : 0.0f; // a select too
  a[tid] += v;
  if (lane == 0)              // one lane publishes the warp's result
    a[warp] = 7.0f;
  if (lane != 0)              // ... and the others skip it
    a[tid] = 8.0f;
  if (tid % 16 == 0)          // one lane per half-warp tile
    a[tid / 16] = 9.0f;
  if (tid % 32 == 31)         // the last lane holds a scan's total
    a[warp] += 1.0f;
  if (tid < 16)               // a tree reduction's tail step
    a[tid] += a[tid + 16];
}

// OPTION: :[[@LINE-12]]:7: warning: branch splits the lanes of a warp: 'lane == 0' sends lane 0 one way and lanes 1-31 the other in every warp
// OPTION: :[[@LINE-11]]:7: warning: branch splits the lanes of a warp: 'lane != 0' sends lanes 1-31 one way and lane 0 the other in every warp
