// Block-wide sum written for Kepler/Maxwell: warp-synchronous shuffles
// without lane masks. warplint flags each shuffle; the ones in convergent
// code get a fix-it to __shfl_down_sync(0xffffffff, ...).
#include <cstdio>
#include <cuda_runtime.h>

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;

  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();

  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
  if (wid == 0)
    val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduce(const float *in, float *out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}

// Counts positive values per warp with a vote, only in the lower half-warp.
__global__ void countPositive(const float *in, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    unsigned votes = __ballot(i < n && in[i] > 0.0f);
    if (lane == 0)
      atomicAdd(counts, __popc(votes));
  }
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  int *counts;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMalloc(&counts, sizeof(int));
  cudaMemset(out, 0, sizeof(float));
  deviceReduce<<<256, 256>>>(in, out, n);
  countPositive<<<n / 256, 256>>>(in, counts, n);
  float result;
  cudaMemcpy(&result, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", result);
  cudaFree(in);
  cudaFree(out);
  cudaFree(counts);
  return 0;
}
