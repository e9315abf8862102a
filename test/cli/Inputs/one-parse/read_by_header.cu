// The same macro, read only by a system header's #ifdef: what the header
// declares differs, a parse per group.
#if __CUDA_ARCH__ >= 800
#define CONFIG_WIDE
#endif
#include "sys/config_reader.h"
__global__ void k(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = width;
}
