// A barrier the source's constants leave out of the code (a dead arm of a
// ?: or an if whose condition folds, in the kernel or in an instantiation
// of a helper it calls) is not in nvcc's PTX: no finding. The same code with
// the constants that keep the barrier is reported.
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,divergence-barrier' --ir-layer=false --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'

// A tile of Z lanes picks a block barrier only when it spans more than a
// warp.
#define WARP_SZ 32
template <int Z>
__device__ void tile_sync() {
  (Z > WARP_SZ) ? __syncthreads() : __syncwarp();
  // (tile_sync<64>, called under a thread-dependent if below)
  // CHECK: :[[@LINE-2]]:19: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 32', which depends on the thread
  // CHECK: :[[#TILE_IF:]]:7: note: this condition splits the threads of the block
  // CHECK: :[[#TILE_IF+1]]:5: note: 'tile_sync' is called here
}

__global__ void barrier_in_dead_arm(float *out, const float *in) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32) {
    (32 > WARP_SZ) ? __syncthreads() : __syncwarp();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
  if (32 > WARP_SZ) {
    if (threadIdx.x < 32)
      __syncthreads();
  }
  if (32 <= WARP_SZ) {
  } else if (threadIdx.x < 32) {
    __syncthreads();
  }
  if (threadIdx.x < 32)
    tile_sync<32>();
  out[threadIdx.x + 64] = s[threadIdx.x]; // no if is the kernel's last
}

// The same with the constants that keep the barrier: reported.
__global__ void barrier_in_live_arm(float *out, const float *in) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32) {
    (64 > WARP_SZ) ? __syncthreads() : __syncwarp();
    // CHECK: :[[@LINE-1]]:22: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 32', which depends on the thread
    // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
  if (threadIdx.x < 32 && 64 > WARP_SZ)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 32 && 64 > WARP_SZ', which depends on the thread
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  if (threadIdx.x < 32)
    tile_sync<64>();
  out[threadIdx.x + 64] = s[threadIdx.x];
}
