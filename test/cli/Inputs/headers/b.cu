#include "shared.cuh"
__global__ void kb(float *o, float v) { o[0] = shuffle_sum(v) + __shfl_up(v, 1); }
