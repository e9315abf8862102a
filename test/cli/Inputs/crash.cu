#include <cuda_runtime.h>
__global__ void k(float *o, float x) { o[0] = __shfl(x, 0); }
#pragma clang __debug crash
