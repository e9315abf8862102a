// The user's code tests __CUDA_ARCH__'s value: a parse per target.
__global__ void k(float *p) {
#if __CUDA_ARCH__ >= 700
  __nanosleep(100);
#endif
  p[threadIdx.x] = 0;
}
