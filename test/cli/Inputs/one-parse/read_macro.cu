// The same macro, read by a kernel's __launch_bounds__: a parse per group.
#if __CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900
#define BLOCKS_PER_SM 2
#else
#define BLOCKS_PER_SM 1
#endif
__global__ void __launch_bounds__(1024, BLOCKS_PER_SM) k(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 0;
}
