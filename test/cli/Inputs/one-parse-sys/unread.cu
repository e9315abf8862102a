// The same header, and a per-target macro nothing reads: one parse.
#if __CUDA_ARCH__ >= 800
#define UNUSED_WIDTH 2
#else
#define UNUSED_WIDTH 1
#endif
#define CONFIG_WIDTH 1
#include <config_code.h>
__global__ void k(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = width;
}
