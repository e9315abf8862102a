// Only whether __CUDA_ARCH__ is defined (the device side of the parse):
// every target's parse answers the same, so one parse serves them all.
#ifdef __CUDA_ARCH__
__global__ void k(float *p) { p[threadIdx.x] = 0; }
#endif
#if defined(__CUDA_ARCH__)
__global__ void k2(float *p) { p[threadIdx.x] = 1; }
#endif
