// A 1-D stencil through a shared-memory tile with halos, and a block sum
// finished by one warp. Two barrier mistakes that pass every test on small
// inputs: the tile loader returns early for out-of-range threads and then
// synchronises, so in the last block those threads go back to the kernel and
// run on without meeting the barrier (undefined behaviour: whether a run
// shows it depends on how the scheduler orders the two paths); and the last
// warp adds up the per-warp partial sums through shared memory as if it ran
// in lockstep.
#include <cuda_runtime.h>

constexpr int RADIUS = 3;
constexpr int BLOCK = 256;

__device__ void load_tile(float *tile, const float *in, int i, int n) {
  int t = threadIdx.x + RADIUS;
  if (i >= n)
    return; // nothing to load past the end...
  tile[t] = in[i];
  if (threadIdx.x < RADIUS) {
    tile[t - RADIUS] = i >= RADIUS ? in[i - RADIUS] : 0.0f;
    tile[t + BLOCK] = i + BLOCK < n ? in[i + BLOCK] : 0.0f;
  }
  __syncthreads(); // ...but the threads that returned never get here
}

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  load_tile(tile, in, i, n);
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += tile[threadIdx.x + RADIUS + k];
  out[i] = i < n ? sum : 0.0f; // out is padded to whole blocks
}

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK / 32];
  __shared__ float sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    volatile float *s = sums;
    s[threadIdx.x] = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.0f;
    s[threadIdx.x] += s[threadIdx.x + 4];
    s[threadIdx.x] += s[threadIdx.x + 2];
    s[threadIdx.x] += s[threadIdx.x + 1];
    if (threadIdx.x == 0)
      atomicAdd(out, s[0]);
  }
}

int main() {
  const int n = 999999; // the last block: 63 threads in range
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  const int padded = (n + BLOCK - 1) / BLOCK * BLOCK;
  cudaMalloc(&out, padded * sizeof(float));
  stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  block_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
