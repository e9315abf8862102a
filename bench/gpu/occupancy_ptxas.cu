// launch-occupancy's register path against the hardware: for each launch
// below, warplint reads the registers ptxas gives the kernel (nvcc -Xptxas
// -v, run beside its parse) and predicts the blocks per SM; this program
// prints what the CUDA runtime says on the GPU it runs on
// (cudaFuncGetAttributes' numRegs and sharedSizeBytes,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor). run_occupancy_ptxas.sh
// compares the two.
#include <cstdio>
#include <cuda_runtime.h>

// Register pressure grows with N: N values live across the second loop.
template <int N> __global__ void pressure(const float *in, float *out) {
  float r[N];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < N; ++k)
    r[k] = in[i * N + k];
  float s = 0;
#pragma unroll
  for (int a = 0; a < N; ++a)
#pragma unroll
    for (int b = 0; b < N; ++b)
      s += r[a] * r[b] * float(a + b);
  out[i] = s;
}

// The same work, capped so that 3 blocks of 256 fit (ptxas may spill).
__global__ void __launch_bounds__(256, 3) capped(const float *in, float *out) {
  float r[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 64; ++k)
    r[k] = in[i * 64 + k];
  float s = 0;
#pragma unroll
  for (int a = 0; a < 64; ++a)
#pragma unroll
    for (int b = 0; b < 64; ++b)
      s += r[a] * r[b] * float(a + b);
  out[i] = s;
}

__global__ void tile40k(const float *in, float *out) {
  __shared__ float t[10000];
  for (int k = threadIdx.x; k < 10000; k += blockDim.x)
    t[k] = in[k];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[9999 - threadIdx.x];
}

template <typename K>
static void report(const char *Name, K Kernel, int Threads) {
  cudaFuncAttributes A;
  cudaFuncGetAttributes(&A, Kernel);
  int Blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, Kernel, Threads, 0);
  printf("%s,%d,%d,%zu,%d\n", Name, Threads, A.numRegs, A.sharedSizeBytes,
         Blocks);
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * 64 * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  int grid = n / 256;
  // The launches warplint judges (each kernel runs once, for real).
  pressure<16><<<grid, 256>>>(in, out);
  pressure<24><<<grid, 256>>>(in, out);
  pressure<28><<<grid, 256>>>(in, out);
  pressure<32><<<grid, 256>>>(in, out);
  pressure<32><<<grid / 2, 512>>>(in, out);
  pressure<40><<<grid, 256>>>(in, out);
  pressure<64><<<grid * 2, 128>>>(in, out);
  capped<<<grid, 256>>>(in, out);
  tile40k<<<grid * 2, 128>>>(in, out);
  cudaDeviceSynchronize();
  printf("kernel,threads,registers,static_shared,blocks_per_sm\n");
  report("pressure<16>", pressure<16>, 256);
  report("pressure<24>", pressure<24>, 256);
  report("pressure<28>", pressure<28>, 256);
  report("pressure<32>", pressure<32>, 256);
  report("pressure<32>", pressure<32>, 512);
  report("pressure<40>", pressure<40>, 256);
  report("pressure<64>", pressure<64>, 128);
  report("capped", capped, 256);
  report("tile40k", tile40k, 128);
  return cudaGetLastError() != cudaSuccess;
}
