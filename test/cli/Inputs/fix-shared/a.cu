#include <cuda_runtime.h>
#include "shared.cuh"
__global__ void a(float *o, float x) { o[0] = warpSum(x); }
