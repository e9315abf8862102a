// Two kernels the occupancy check asks registers for; built by the test
// with nvcc -maxrregcount=64, so that the build's counts are nvcc's own.
#include <cuda_runtime.h>

__global__ void heavy(float *a, int n) {
  __shared__ float s[300];
  float acc[16];
  for (int k = 0; k < 16; ++k)
    acc[k] = a[threadIdx.x + k * n];
  s[threadIdx.x % 300] = acc[0];
  __syncthreads();
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 16; ++k)
      acc[k] = acc[k] * s[(i + k) % 300] + acc[(k + 1) % 16];
  float t = 0;
  for (int k = 0; k < 16; ++k)
    t += acc[k];
  a[threadIdx.x] = t;
}

__global__ void light(float *a) { a[threadIdx.x] *= 2.0f; }

void run(float *a, int n) {
  heavy<<<4096, 768>>>(a, n);
  light<<<4096, 256>>>(a);
}
