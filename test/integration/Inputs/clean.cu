#include <cuda_runtime.h>

__global__ void vote(int *out, int x) {
  if (__any_sync(0xffffffffu, x > 0))
    out[threadIdx.x] = 1;
}
