#pragma once
__device__ inline float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}
