// The user's code tests __CUDA_ARCH__, and every target of the run takes the
// same branch (sm_50 and later): one parse. <assert.h>'s assert is
// redefined the same under such a test in the CUDA headers.
#include <assert.h>
__global__ void k(float *p, int n) {
#if __CUDA_ARCH__ >= 500
  if (threadIdx.x < n)
    p[threadIdx.x] = 0;
#else
  p[threadIdx.x] = 1;
#endif
  assert(n > 0);
}
