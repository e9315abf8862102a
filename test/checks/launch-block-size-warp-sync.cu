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

void launch(float *out) {
  tail_lockstep<<<1024, 48>>>(out);
  // CHECK: :[[@LINE-1]]:25: note: 'tail_lockstep' is launched with blocks of 48 threads, not a multiple of the warp size (32){{.*}}; 'tail_lockstep' is warp-synchronous (its lanes exchange data through shared memory without a barrier): its block size is part of that design
  tail_synced<<<1024, 48>>>(out);
  // CHECK: :[[@LINE-1]]:23: warning: 'tail_synced' is launched with blocks of 48 threads, not a multiple of the warp size (32)
}
