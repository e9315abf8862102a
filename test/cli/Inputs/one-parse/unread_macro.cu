// A configuration macro defined per target (llm.c's common.h sets
// MAX_1024_THREADS_BLOCKS to 2 for sm_80 and later) that this file never
// reads: every target parses to the same code, one parse.
#if __CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900
#define BLOCKS_PER_SM 2
#else
#define BLOCKS_PER_SM 1
#endif
__global__ void k(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 0;
}
