// RUN: %warplint --checks='-*,launch-block-size' --ptxas=false --arch=sm_80 %s -- | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// A warp-synchronous kernel (its lanes exchange data through shared memory
// with no barrier) is written for its warps: a block-size finding on it is a
// note, not a warning. The same kernel with __syncwarp() between the steps
// is a launch parameter to tune, and keeps its warning.

__global__ void tail_lockstep(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 16) {
    volatile float *v = s;
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
  }
  if (tid == 0)
    out[0] = s[0];
}

__global__ void tail_synced(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 16) {
    float x = s[tid] + s[tid + 16];
    __syncwarp(0xffff);
    s[tid] = x;
    __syncwarp(0xffff);
  }
  if (tid == 0)
    out[0] = s[0];
}

// A kernel built on CUB's block-wide primitives for one block size (their
// BLOCK_DIM_X is a template argument): a one-warp block is its design.
#include <cub/block/block_reduce.cuh>
template <int THREADS> __global__ void cub_absmax(const float *in, float *out) {
  typedef cub::BlockReduce<float, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  float v = fabsf(in[blockIdx.x * blockDim.x + threadIdx.x]);
  float m = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = m;
}

// The same one-warp block for a kernel that reads its block's size and
// builds nothing for it: a launch parameter to tune.
__global__ void plain_absmax(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fabsf(in[i]);
}

// A kernel defined in another file, launched one warp a block with the
// block spelled as the warp size: that is its design.
#define WARP_SIZE 32
__global__ void warp_per_row(const float *in, float *out, int n);
static constexpr int host_warp_size() { return 32; }

void launch_rows(const float *in, float *out, int n) {
  warp_per_row<<<65536, WARP_SIZE>>>(in, out, n);
  // CHECK: :[[@LINE-1]]:25: note: 'warp_per_row' is launched with blocks of 32 threads, too small to fill an SM on sm_80{{.*}}; its block is spelled as the warp size ('WARP_SIZE'): one warp a block is the kernel's design, and more warps a block is a change to the kernel
  const int ws = host_warp_size();
  warp_per_row<<<65536, ws>>>(in, out, n);
  // CHECK: :[[@LINE-1]]:25: note: 'warp_per_row' {{.*}}; its block is spelled as the warp size ('host_warp_size()')
  // The same one-warp block as a literal: a launch parameter to tune.
  warp_per_row<<<65536, 32>>>(in, out, n);
  // CHECK: :[[@LINE-1]]:25: warning: 'warp_per_row' is launched with blocks of 32 threads, too small to fill an SM on sm_80
}

void launch(float *out) {
  tail_lockstep<<<1024, 48>>>(out);
  // CHECK: :[[@LINE-1]]:25: note: 'tail_lockstep' is launched with blocks of 48 threads, not a multiple of the warp size (32){{.*}}; 'tail_lockstep' is warp-synchronous (its lanes exchange data through shared memory without a barrier): its block size is part of that design
  tail_synced<<<1024, 48>>>(out);
  // CHECK: :[[@LINE-1]]:23: warning: 'tail_synced' is launched with blocks of 48 threads, not a multiple of the warp size (32)
  cub_absmax<32><<<65536, 32>>>(out, out);
  // CHECK: :[[@LINE-1]]:27: note: 'cub_absmax' is launched with blocks of 32 threads, too small to fill an SM on sm_80{{.*}}; 'cub_absmax' builds cub::BlockReduce for blocks of 32 threads: its block size is a template argument of the kernel's CUB primitives, and another is a change to the kernel
  plain_absmax<<<65536, 32>>>(out, out);
  // CHECK: :[[@LINE-1]]:25: warning: 'plain_absmax' is launched with blocks of 32 threads, too small to fill an SM on sm_80
}
