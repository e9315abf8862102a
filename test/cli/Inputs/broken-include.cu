#include <cuda_runtime.h>
// A warp-synchronous exchange the checks would report, before the include
// the build's own include path finds and this parse does not.
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32) {
    s[threadIdx.x] += s[threadIdx.x + 16];
    s[threadIdx.x] += s[threadIdx.x + 8];
  }
  if (threadIdx.x == 0)
    *out = s[0] + __shfl_down(s[1], 1);
}
#include "sync_helpers.cuh"
