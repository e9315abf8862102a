#include <cuda_runtime.h>

__global__ void k(float *out, float x) {
  x += /* é */ __shfl_down(x, 16);
  *out = x;
}

__global__ void b(float *out) {
  if (threadIdx.x < 64)
    __syncthreads(); // only half a warp
  out[threadIdx.x] = 0.0f;
}
