// __CUDA_ARCH__'s value where a comparison does not stand alone (an
// addition binds tighter than >=): the targets' code differs, a parse each.
__global__ void k(float *p) {
  constexpr int Banks = __CUDA_ARCH__ >= 200 + 0 ? 32 : 16;
  __shared__ float s[32 * Banks];
  s[threadIdx.x * Banks] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[threadIdx.x];
}
