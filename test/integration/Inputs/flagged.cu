#include <cuda_runtime.h>

// A legacy intrinsic only with -DUSE_LEGACY: a finding shows that the flags
// of a compile database, or those after '--', were used.
__global__ void vote(int *out, int x) {
#ifdef USE_LEGACY
  if (__any(x > 0))
#else
  if (__any_sync(0xffffffffu, x > 0))
#endif
    out[threadIdx.x] = 1;
}
