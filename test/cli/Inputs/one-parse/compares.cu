// The user's code compares __CUDA_ARCH__'s value with a constant in code
// rather than in #if (Rodinia's dwt2d sizes its shared buffers so): every
// target answers each comparison alike, so one parse.
#define BANKS ((__CUDA_ARCH__ >= 200) ? 32 : 16)
__global__ void k(float *p) {
  __shared__ float s[BANKS * 32];
  constexpr bool Wide = __CUDA_ARCH__ >= 300;
  s[threadIdx.x * BANKS] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = Wide && 500 <= __CUDA_ARCH__ ? s[threadIdx.x] : 0;
}
