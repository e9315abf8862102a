// Occupancy on the GPU itself: for kernels of known block size and shared
// memory and a register count pinned by __maxnreg__, what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor returns. Prints one CSV row
// per launch: kernel,threads,registers,static_smem,dynamic_smem,blocks.
// The registers are the compiled kernel's (cudaFuncGetAttributes), whatever
// ptxas settled on under the cap. Run under Nsight Compute with
// run_occupancy.sh for launch__occupancy_limit_* as well.
#include <cstdio>

// Enough live values that ptxas uses the registers it is allowed.
template <int Regs, int Smem>
__global__ void __maxnreg__(Regs) pressure(float *out, const float *in, int n) {
  constexpr int Words = Smem > 0 ? Smem / 4 : 1;
  __shared__ float tile[Words];
  float v[24];
#pragma unroll
  for (int k = 0; k < 24; ++k)
    v[k] = in[(threadIdx.x * 24 + k) % n];
  if (Smem > 0) {
    tile[threadIdx.x % Words] = v[0];
    __syncthreads();
    v[1] += tile[(threadIdx.x + 1) % Words];
  }
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int k = 0; k < 24; ++k)
      v[k] = v[k] * v[(k + r + 1) % 24] + v[(k + 7) % 24];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 24; ++k)
    s += v[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void dynamic_smem(float *out, int n) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % n];
}

template <typename K>
void row(const char *Name, K Kernel, int Threads, size_t Dynamic) {
  cudaFuncAttributes A;
  cudaFuncGetAttributes(&A, Kernel);
  if (Dynamic > 48 * 1024)
    cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         (int)Dynamic);
  int Blocks = -1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, Kernel, Threads,
                                                Dynamic);
  printf("%s,%d,%d,%zu,%zu,%d\n", Name, Threads, A.numRegs, A.sharedSizeBytes,
         Dynamic, Blocks);
}

#define PRESSURE(R, S, T)                                                      \
  do {                                                                         \
    auto K = pressure<R, S>;                                                   \
    row("pressure_r" #R "_s" #S "_t" #T, K, T, 0);                    \
    K<<<4, T>>>(out, in, 4096);                                                \
  } while (0)

int main() {
  float *out, *in;
  cudaMalloc(&out, 1 << 24);
  cudaMalloc(&in, 1 << 24);
  cudaMemset(in, 0, 1 << 24);
  printf("kernel,threads,registers,static_smem,dynamic_smem,blocks\n");
  PRESSURE(32, 0, 256);
  PRESSURE(40, 0, 128);
  PRESSURE(48, 0, 128);
  PRESSURE(48, 0, 384);
  PRESSURE(64, 0, 256);
  PRESSURE(64, 0, 1024);
  PRESSURE(72, 0, 96);
  PRESSURE(96, 0, 256);
  PRESSURE(128, 0, 256);
  PRESSURE(168, 0, 192);
  PRESSURE(32, 32768, 256);
  PRESSURE(32, 12288, 256);
  PRESSURE(40, 49152, 256);
  PRESSURE(64, 20480, 512);
  PRESSURE(32, 0, 32);
  PRESSURE(32, 0, 64);
  for (size_t Dyn : {size_t(0), size_t(8192), size_t(20000), size_t(40000),
                     size_t(100000), size_t(200000)}) {
    char Name[64];
    snprintf(Name, sizeof Name, "dynamic_smem_d%zu", Dyn);
    row(Name, dynamic_smem, 256, Dyn);
    if (Dyn >= 256 * sizeof(float)) // the kernel touches 256 floats
      dynamic_smem<<<4, 256, Dyn>>>(out, 256);
  }
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(E));
    return 1;
  }
  return 0;
}
