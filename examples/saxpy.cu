// SAXPY two ways: a grid-stride loop over floats and a float4 version.
// Both are coalesced and warp-convergent: warplint has nothing to say.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void saxpy4(int n4, float a, const float4 *__restrict__ x,
                       float4 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 xv = x[i];
    float4 yv = y[i];
    yv.x = a * xv.x + yv.x;
    yv.y = a * xv.y + yv.y;
    yv.z = a * xv.z + yv.z;
    yv.w = a * xv.w + yv.w;
    y[i] = yv;
  }
}

int main() {
  const int n = 1 << 24;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<1024, 256>>>(n, 2.0f, x, y);
  saxpy4<<<(n / 4 + 255) / 256, 256>>>(n / 4, 2.0f,
                                       reinterpret_cast<const float4 *>(x),
                                       reinterpret_cast<float4 *>(y));
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
