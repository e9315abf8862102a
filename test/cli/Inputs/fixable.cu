#include <cuda_runtime.h>

__global__ void k(unsigned *out, float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (__any(v > 0.0f))
    v = 0.0f;
  out[blockIdx.x] = __ballot(v > 1.0f);
}
