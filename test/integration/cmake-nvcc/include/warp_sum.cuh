#pragma once
#include <cuda_runtime.h>

// A warp's sum, with the pre-Volta shuffle: a finding in a header that two
// .cu files include.
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}
