#include <cuda_runtime.h>
#include "kernels.cu"

void run_scale(float *a, const float *b, int n) {
  scale<<<(n + 255) / 256, 256>>>(a, b, n);
}
