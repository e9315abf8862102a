// A configuration macro set per target and read only by the code (not a
// directive) of a header under -isystem, whose directives alone the
// other targets' preprocessing reads: the parse saw it read, so the
// targets' definitions count, and they differ.
#if __CUDA_ARCH__ >= 800
#define CONFIG_WIDTH 2
#else
#define CONFIG_WIDTH 1
#endif
#include <config_code.h>
__global__ void k(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = width;
}
