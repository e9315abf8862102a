#include <cuda_runtime.h>

__global__ void k(float *out, float x) {
  // NOLINTBEGIN(warp-legacy-intrinsic)
  // (no END follows)
  x += __shfl_down(x, 16);
  // NOLINTBEGIN(warp-*)
  x += __shfl_down(x, 8);
  // NOLINTEND(warp-*)
  *out = x;
}
  // NOLINTEND(memory-*)
