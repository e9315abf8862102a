#include "warp_sum.cuh"

__global__ void scale_kernel(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool inside = i < n;
  if (__any(inside))
    data[i < n ? i : 0] *= factor + warp_sum(0.0f);
}

void launch_scale(float *data, float factor, int n) {
  scale_kernel<<<(n + 255) / 256, 256>>>(data, factor, n);
}
