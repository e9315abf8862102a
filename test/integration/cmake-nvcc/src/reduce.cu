#include "warp_sum.cuh"

// BLOCK comes from the target's compile definitions.
__global__ void reduce_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if (__ballot(v != 0.0f) && threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

void launch_reduce(const float *in, float *out, int n) {
  reduce_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
