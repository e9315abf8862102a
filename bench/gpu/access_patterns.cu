// Ground truth for memory-uncoalesced-access and memory-shared-bank-conflict:
// one kernel per access pattern the checks reason about. Run under Nsight
// Compute (bench/gpu/run_ncu.sh) and compare sectors per request and bank
// conflicts with what warplint predicts for the same lines.
#include <cstdio>
#include <cuda_runtime.h>

struct P3 { float x, y, z; };          // 12-byte AoS element
struct P6 { float x, y, z, vx, vy, vz; }; // 24-byte AoS element

__global__ void unit_float(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
}
__global__ void unit_float4(const float4 *a, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
}
__global__ void unit_double(const double *a, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
}
__global__ void aos12_field(const P3 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].y;
}
__global__ void aos24_field(const P6 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].vx;
}
__global__ void stride2(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * 2];
}
__global__ void stride8(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * 8];
}
__global__ void column_walk(const float *a, float *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * n + k];
}
__global__ void broadcast(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[blockIdx.x];
}
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  out[x * n + y] = in[y * n + x];
}
__global__ void shared_column(float *out) {
  __shared__ float tile[32][32];
  int k = threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][k];
}
__global__ void shared_column_padded(float *out) {
  __shared__ float tile[32][33];
  int k = threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][k];
}
__global__ void shared_stride2(float *out) {
  __shared__ float s[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x * 2];
}
__global__ void shared_double(double *out) {
  __shared__ double s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
// The interleaved tree reduction ("Optimizing Parallel Reduction", kernel 2).
__global__ void shared_interleaved_reduce(float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
__global__ void shared_double_column(double *out) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = d[threadIdx.x][threadIdx.y];
}
__global__ void shared_broadcast(float *out) {
  __shared__ float s[32];
  if (threadIdx.x < 32)
    s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
}

int main() {
  const int n = 1 << 20;
  float *a, *out;
  cudaMalloc(&a, 16 * n * sizeof(float));
  cudaMalloc(&out, 16 * n * sizeof(float));
  dim3 b(256), g(n / 256);
  unit_float<<<g, b>>>(a, out);
  unit_float4<<<g, b>>>((const float4 *)a, (float4 *)out);
  unit_double<<<g, b>>>((const double *)a, (double *)out);
  aos12_field<<<g, b>>>((const P3 *)a, out);
  aos24_field<<<g, b>>>((const P6 *)a, out);
  stride2<<<g, b>>>(a, out);
  stride8<<<g, b>>>(a, out);
  column_walk<<<16, b>>>(a, out, 1024, 3);
  broadcast<<<g, b>>>(a, out);
  transpose_naive<<<dim3(32, 32), dim3(32, 32)>>>(a, out, 1024);
  shared_column<<<64, dim3(32, 32)>>>(out);
  shared_column_padded<<<64, dim3(32, 32)>>>(out);
  shared_stride2<<<64, 256>>>(out);
  shared_double<<<64, 256>>>((double *)out);
  shared_broadcast<<<64, 256>>>(out);
  shared_interleaved_reduce<<<64, 256>>>(out);
  shared_double_column<<<64, dim3(32, 32)>>>((double *)out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
