#include <cuda_runtime.h>
#include "deferred_hook.cuh"
int host_only(int x) { return x + 1; }
inline __host__ __device__ int hook(int x) { return host_only(x); }
