// What memory-shared-bank-conflict says a fix saves, against what it saves
// on the GPU. Each shape, reduced from findings on real code, comes as the
// kernel as written (orig_*) and as fixed (fix_*: the padding or layout the
// finding's note suggests). run_bank_savings.sh measures both with Nsight
// Compute (shared wavefronts, L2 sectors from L1, time);
// compare_bank_savings.py puts warplint's saving_pct (summed over the
// kernel's findings) beside the measured share of the kernel's memory work
// (shared wavefronts + 2 per L2 sector) and of time the fix saves.
#include <cstdio>
#include <cuda_runtime.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// 1. Tiled transpose without padding: the column read is 32-way.
__global__ void orig_transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void fix_transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
// 2. A thread per row of a shared tile: the row walk is 32-way.
__global__ void orig_row_walk(const float *in, float *out) {
  __shared__ float s[256][32];
  const float *blk = in + blockIdx.x * 256 * 32;
  for (int k = 0; k < 32; ++k)
    s[threadIdx.x / 32 * 32 + k][threadIdx.x % 32] = blk[k * 256 + threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += s[threadIdx.x][k] * k;
  out[GID] = acc;
}
__global__ void fix_row_walk(const float *in, float *out) {
  __shared__ float s[256][33];
  const float *blk = in + blockIdx.x * 256 * 32;
  for (int k = 0; k < 32; ++k)
    s[threadIdx.x / 32 * 32 + k][threadIdx.x % 32] = blk[k * 256 + threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += s[threadIdx.x][k] * k;
  out[GID] = acc;
}
// 3. Stride 2 once per thread in a kernel that streams global memory.
__global__ void orig_stride2_stream(const float *in, float *out) {
  __shared__ float s[512];
  s[2 * threadIdx.x] = in[GID];
  __syncthreads();
  out[GID] = s[2 * threadIdx.x] + in[GID + 4096];
}
__global__ void fix_stride2_stream(const float *in, float *out) {
  __shared__ float s[512];
  s[threadIdx.x] = in[GID];
  __syncthreads();
  out[GID] = s[threadIdx.x] + in[GID + 4096];
}
// 4. A 16x16 block storing its tile column-wise (8-way), read back once.
__global__ void orig_bitmap16(const float *in, float *out, int n) {
  __shared__ float s[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  s[threadIdx.x][threadIdx.y] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = s[15 - threadIdx.x][15 - threadIdx.y];
}
__global__ void fix_bitmap16(const float *in, float *out, int n) {
  __shared__ float s[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  s[threadIdx.x][threadIdx.y] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = s[15 - threadIdx.x][15 - threadIdx.y];
}
// 5. Four consecutive floats a thread (cusz's Lorenzo scratch): 4-way.
__global__ void orig_seq4(const float *in, float *out) {
  __shared__ float s[1024];
  const float *blk = in + blockIdx.x * 1024;
  for (int i = 0; i < 4; ++i)
    s[i * 256 + threadIdx.x] = blk[i * 256 + threadIdx.x];
  __syncthreads();
  float v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = s[threadIdx.x * 4 + i];
  float acc = v[0];
  for (int i = 1; i < 4; ++i)
    acc = acc * 0.5f + v[i];
  out[GID] = acc;
}
__global__ void fix_seq4(const float *in, float *out) {
  __shared__ float s[1024];
  const float *blk = in + blockIdx.x * 1024;
  for (int i = 0; i < 4; ++i)
    s[i * 256 + threadIdx.x] = blk[i * 256 + threadIdx.x];
  __syncthreads();
  float v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = s[i * 256 + threadIdx.x];
  float acc = v[0];
  for (int i = 1; i < 4; ++i)
    acc = acc * 0.5f + v[i];
  out[GID] = acc;
}
// 6. Interleaved tree reduction (index = 2 * s * tid): 2- to 32-way.
__global__ void orig_tree_interleaved(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[GID];
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < 256)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
__global__ void fix_tree_interleaved(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[GID];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// 7. A GEMM tile whose B tile is read down a column (Bs[tx][k]).
__global__ void orig_gemm_column(const float *A, const float *B, float *C,
                                 int n) {
  __shared__ float As[32][32], Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0;
  for (int t = 0; t < n; t += 32) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(blockIdx.x * 32 + ty) * n + t + tx];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[tx][k];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
__global__ void fix_gemm_column(const float *A, const float *B, float *C,
                                int n) {
  __shared__ float As[32][32], Bs[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0;
  for (int t = 0; t < n; t += 32) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(blockIdx.x * 32 + ty) * n + t + tx];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[tx][k];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
// 8. Doubles two apart (16-byte lane stride): 2-way per half-warp pass.
__global__ void orig_double_pair(const double *in, double *out) {
  __shared__ double s[512];
  s[threadIdx.x] = in[GID];
  s[threadIdx.x + 256] = in[GID] * 2;
  __syncthreads();
  double acc = 0;
  for (int k = 0; k < 16; ++k)
    acc = acc * s[2 * threadIdx.x] + s[2 * threadIdx.x + 1];
  out[GID] = acc;
}
__global__ void fix_double_pair(const double *in, double *out) {
  __shared__ double s[512];
  s[threadIdx.x] = in[GID];
  s[threadIdx.x + 256] = in[GID] * 2;
  __syncthreads();
  double acc = 0;
  for (int k = 0; k < 16; ++k)
    acc = acc * s[threadIdx.x] + s[threadIdx.x + 256];
  out[GID] = acc;
}
// 9. Pairs a run-time stride apart (1 at run time: 2-way).
__global__ void orig_runtime_stride(const float *in, float *out, int stride) {
  __shared__ float s[256 * 4];
  s[threadIdx.x * 2 * stride] = in[GID];
  __syncthreads();
  out[GID] = s[threadIdx.x * 2 * stride] * 2.0f;
}
__global__ void fix_runtime_stride(const float *in, float *out, int stride) {
  __shared__ float s[256 * 4];
  s[threadIdx.x] = in[GID];
  __syncthreads();
  out[GID] = s[threadIdx.x] * 2.0f;
}
// 10. Column-major tile updated in a compute loop (8-way), little global.
__global__ void orig_tile_compute(const float *in, float *out) {
  __shared__ float s[32][8];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  s[lane][w] = in[GID];
  __syncthreads();
  float acc = 0;
  for (int it = 0; it < 64; ++it)
    acc += s[lane][(w + it) & 7] * 1.0001f;
  out[GID] = acc;
}
__global__ void fix_tile_compute(const float *in, float *out) {
  __shared__ float s[8][32];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  s[w][lane] = in[GID];
  __syncthreads();
  float acc = 0;
  for (int it = 0; it < 64; ++it)
    acc += s[(w + it) & 7][lane] * 1.0001f;
  out[GID] = acc;
}

int main() {
  const int N = 1 << 24, n = 4096;
  float *a, *b, *c;
  double *da, *db;
  cudaMalloc(&a, (N + 8192) * sizeof(float));
  cudaMalloc(&b, (N + 8192) * sizeof(float));
  cudaMalloc(&c, (N + 8192) * sizeof(float));
  cudaMalloc(&da, N * sizeof(double));
  cudaMalloc(&db, N * sizeof(double));
  cudaMemset(a, 0, (N + 8192) * sizeof(float));
  cudaMemset(b, 0, (N + 8192) * sizeof(float));
  cudaMemset(da, 0, N * sizeof(double));
  dim3 t32x8(32, 8), g128(n / 32, n / 32), t16(16, 16), g256(n / 16, n / 16);
  dim3 t32x32(32, 32), gg(1024 / 32, 1024 / 32);
  // Two rounds: Nsight Compute measures the second (warm caches).
  for (int round = 0; round < 2; ++round) {
    orig_transpose<<<g128, t32x8>>>(a, b, n);
    fix_transpose<<<g128, t32x8>>>(a, b, n);
    orig_row_walk<<<N / 256 / 32, 256>>>(a, b);
    fix_row_walk<<<N / 256 / 32, 256>>>(a, b);
    orig_stride2_stream<<<N / 256, 256>>>(a, b);
    fix_stride2_stream<<<N / 256, 256>>>(a, b);
    orig_bitmap16<<<g256, t16>>>(a, b, n);
    fix_bitmap16<<<g256, t16>>>(a, b, n);
    orig_seq4<<<N / 1024, 256>>>(a, b);
    fix_seq4<<<N / 1024, 256>>>(a, b);
    orig_tree_interleaved<<<N / 256, 256>>>(a, b);
    fix_tree_interleaved<<<N / 256, 256>>>(a, b);
    orig_gemm_column<<<gg, t32x32>>>(a, b, c, 1024);
    fix_gemm_column<<<gg, t32x32>>>(a, b, c, 1024);
    orig_double_pair<<<N / 256, 256>>>(da, db);
    fix_double_pair<<<N / 256, 256>>>(da, db);
    orig_runtime_stride<<<N / 256, 256>>>(a, b, 1);
    fix_runtime_stride<<<N / 256, 256>>>(a, b, 1);
    orig_tile_compute<<<N / 256, 256>>>(a, b);
    fix_tile_compute<<<N / 256, 256>>>(a, b);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", e == cudaSuccess ? "no error" : cudaGetErrorString(e));
  return e != cudaSuccess;
}
