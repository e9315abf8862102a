// A comparison of __CUDA_ARCH__ in code that the targets answer
// differently: a parse per group of targets that answer alike.
__global__ void k(float *p) {
  constexpr int Ways = (__CUDA_ARCH__ >= 700) ? 2 : 1;
  __shared__ float s[32 * Ways];
  s[threadIdx.x * Ways] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[threadIdx.x];
}
