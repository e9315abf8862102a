#include <cuda_runtime.h>
__global__ void k(float *o, float x) { o[0] = __shfl(x, 0); }
void run(float *o) { k<<<1, 32>>>(o, 1.0f); }
