// Every numeric prediction warplint makes, one kernel per prediction, with
// the launch shapes real code uses (1-D 256 threads, 2-D 16x16 and 32x8).
// A `measure:` comment marks the line whose prediction is compared:
//   ld <bytes> / st <bytes>   global sectors per request (Nsight Compute
//                             l1tex__t_sectors / l1tex__t_requests), the
//                             access moving <bytes> per lane
//   shared_ld <bytes> / shared_st <bytes>
//                             N-way bank conflict: shared wavefronts per
//                             instruction over the passes <bytes> need
//   occupancy                 blocks per SM of the launch on this line
//                             (launch__occupancy_limit_* and the runtime)
//   barrier                   a barrier only part of the block reaches
//                             (compute-sanitizer synccheck)
//   branch                    a branch that splits warps
//                             (smsp__sass_branch_targets_threads_divergent)
//   fp64                      double-precision instructions executed
//                             (smsp__sass_thread_inst_executed_op_dfma/dadd/dmul)
//   ld_pct <bytes> / st_pct <bytes>
//                             global load/store efficiency, % of the sectors'
//                             bytes used (smsp__sass_average_data_bytes_per_
//                             sector_mem_global_op_ld/st.pct)
//   ld_requests N / st_requests N
//                             global load/store requests per warp the kernel
//                             issues (l1tex__t_requests over the warps):
//                             what the optimiser left of the kernel's accesses
// run_predictions.sh measures them on a GPU; compare_predictions.py puts
// them beside warplint's --format=json metrics for the same lines.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

struct A8 { float x, y; };
struct A12 { float x, y, z; };
struct A16 { float x, y, z, w; };
struct A24 { float x, y, z, vx, vy, vz; };
struct A32 { float v[8]; };

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// ---------------------------------------------------------------- global loads
__global__ void ld_float(const float *a, float *o) { int i = GID; float v = a[i]; o[i] = v; } // measure: ld 4
__global__ void ld_double(const double *a, double *o) { int i = GID; double v = a[i]; o[i] = v; } // measure: ld 8
__global__ void ld_float2(const float2 *a, float2 *o) { int i = GID; float2 v = a[i]; o[i] = v; } // measure: ld 8
__global__ void ld_float4(const float4 *a, float4 *o) { int i = GID; float4 v = a[i]; o[i] = v; } // measure: ld 16
__global__ void ld_double2(const double2 *a, double2 *o) { int i = GID; double2 v = a[i]; o[i] = v; } // measure: ld 16
__global__ void ld_char(const char *a, char *o) { int i = GID; char v = a[i]; o[i] = v; } // measure: ld 1
__global__ void ld_aos8(const A8 *p, float *o) { int i = GID; float v = p[i].y; o[i] = v; } // measure: ld 4
__global__ void ld_aos12(const A12 *p, float *o) { int i = GID; float v = p[i].y; o[i] = v; } // measure: ld 4
__global__ void ld_aos16(const A16 *p, float *o) { int i = GID; float v = p[i].z; o[i] = v; } // measure: ld 4
__global__ void ld_aos24(const A24 *p, float *o) { int i = GID; float v = p[i].vx; o[i] = v; } // measure: ld 4
__global__ void ld_aos32(const A32 *p, float *o) { int i = GID; float v = p[i].v[3]; o[i] = v; } // measure: ld 4
__global__ void ld_stride2(const float *a, float *o) { int i = GID; float v = a[i * 2]; o[i] = v; } // measure: ld 4
__global__ void ld_stride4(const float *a, float *o) { int i = GID; float v = a[i * 4]; o[i] = v; } // measure: ld 4
__global__ void ld_stride8(const float *a, float *o) { int i = GID; float v = a[i * 8]; o[i] = v; } // measure: ld 4
__global__ void ld_stride32(const float *a, float *o) { int i = GID; float v = a[i * 32]; o[i] = v; } // measure: ld 4
__global__ void ld_double_stride2(const double *a, double *o) { int i = GID; double v = a[i * 2]; o[i] = v; } // measure: ld 8
__global__ void ld_column(const float *a, float *o, int n, int k) { int i = GID; float v = a[i * n + k]; o[i] = v; } // measure: ld 4
__global__ void ld_broadcast(const float *a, float *o) { int i = GID; float v = a[blockIdx.x]; o[i] = v; } // measure: ld 4
__global__ void ld_offset1(const float *a, float *o) { int i = GID; float v = a[i + 1]; o[i] = v; } // measure: ld 4
// 2-D: a 16x16 block puts two 16-float row pieces in each warp.
__global__ void ld_rows_16x16(const float *a, float *o, int n) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float v = a[y * n + x]; // measure: ld 4
  o[y * n + x] = v;
}

// --------------------------------------------------------------- global stores
__global__ void st_aos12(A12 *p, const float *a) { int i = GID; float v = a[i]; p[i].y = v; } // measure: st 4
__global__ void st_stride2(float *o, const float *a) { int i = GID; float v = a[i]; o[i * 2] = v; } // measure: st 4
__global__ void st_transpose_16x16(const float *in, float *out, int n) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float v = in[y * n + x];
  out[x * n + y] = v; // measure: st 4
}
__global__ void st_transpose_32x8(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  float v = in[y * n + x];
  out[x * n + y] = v; // measure: st 4
}
// The tiled transpose: both global accesses coalesced through shared memory.
__global__ void st_transpose_tiled_32x8(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // measure: st 4
}

// --------------------------------------------------------------- shared memory
__global__ void sh_column(float *o) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = t[threadIdx.x][threadIdx.y]; // measure: shared_ld 4
  o[threadIdx.y * 32 + threadIdx.x] = v;
}
__global__ void sh_column_padded(float *o) {
  __shared__ float t[32][33];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = t[threadIdx.x][threadIdx.y]; // measure: shared_ld 4
  o[threadIdx.y * 32 + threadIdx.x] = v;
}
__global__ void sh_stride2(float *o) {
  __shared__ float s[256 * 2];
  for (int i = threadIdx.x; i < 256 * 2; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[threadIdx.x * 2]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_stride3(float *o) {
  __shared__ float s[256 * 3];
  for (int i = threadIdx.x; i < 256 * 3; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[threadIdx.x * 3]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_stride4(float *o) {
  __shared__ float s[256 * 4];
  for (int i = threadIdx.x; i < 256 * 4; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[threadIdx.x * 4]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_stride8(float *o) {
  __shared__ float s[256 * 8];
  for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[threadIdx.x * 8]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_stride16(float *o) {
  __shared__ float s[256 * 16];
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[threadIdx.x * 16]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_double(double *o) {
  __shared__ double s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  double v = s[255 - threadIdx.x]; // measure: shared_ld 8
  o[GID] = v;
}
__global__ void sh_double_stride2(double *o) {
  __shared__ double s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  double v = s[threadIdx.x * 2]; // measure: shared_ld 8
  o[GID] = v;
}
__global__ void sh_double_column(double *o) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  double v = d[threadIdx.x][threadIdx.y]; // measure: shared_ld 8
  o[threadIdx.y * 32 + threadIdx.x] = v;
}
__global__ void sh_broadcast(float *o) {
  __shared__ float s[32];
  if (threadIdx.x < 32)
    s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = s[0]; // measure: shared_ld 4
  o[GID] = v;
}
__global__ void sh_column_16x16(float *o) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = t[threadIdx.x][threadIdx.y]; // measure: shared_ld 4
  o[threadIdx.y * 16 + threadIdx.x] = v;
}
__global__ void sh_store_column(float *o) {
  __shared__ float t[32][32];
  t[threadIdx.x][threadIdx.y] = threadIdx.x; // measure: shared_st 4
  __syncthreads();
  o[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

// ------------------------------------------ what the optimiser does to them
// The components of a uchar4 read one at a time: one 4-byte load per lane
// (ld.global.v4.u8), 8 bytes apart.
struct Pixel { uchar4 c; float depth; };
__global__ void opt_uchar4_merged(const Pixel *p, int *o) { // measure: ld_requests 1
  int i = GID;
  int v = p[i].c.x + p[i].c.y + p[i].c.z + p[i].c.w; // measure: ld_pct 4
  o[i] = v;
}
// Two neighbours of an 8-aligned shared array: one ld.shared.v2.f32.
__global__ void opt_shared_pair(float *o) {
  __shared__ __align__(8) float s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[2 * threadIdx.x] + s[2 * threadIdx.x + 1]; // measure: shared_ld 8
  o[GID] = v;
}
// Every fourth float, two at a time: one 8-byte load per lane 16 bytes
// apart, 2-way in each half-warp (4-way as two 4-byte loads).
__global__ void opt_shared_pair_stride4(float *o) {
  __shared__ __align__(16) float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = s[4 * threadIdx.x] + s[4 * threadIdx.x + 1]; // measure: shared_ld 8
  o[GID] = v;
}
// The same field read twice with no store between: one load.
__global__ void opt_cse(const A12 *p, float *o) { // measure: ld_requests 1
  int i = GID;
  float a = p[i].x; // measure: ld 4
  float b = p[i].x * 2.0f;
  o[i] = a + b;
}
// A 16x16 block's transposed store, written twice: the first is dead.
__global__ void opt_dse_16x16(const float *in, float *out, int n) { // measure: st_requests 1
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float v = in[y * n + x];
  out[x * n + y] = 0.0f;
  out[x * n + y] = v; // measure: st 4
}
// Two 8-aligned float2 arrays: ft_k[i].x (0 mod 8) cannot be ft[i].y
// (4 mod 8), so the .y load moves above the .x store: one 8-byte load and
// one 8-byte store per lane (simpleCUFFT_2d_MGPU's solvePoisson).
__global__ void opt_float2_across_store(float2 *ft_k, const float2 *ft) {
  int i = GID;
  ft_k[i].x = -ft[i].x * 2.0f; // measure: ld 8
  ft_k[i].y = -ft[i].y * 2.0f; // measure: st 8
}
// The look-alike aligned to 4: ft_k[i].x may be ft[i].y; four 4-byte
// accesses.
__global__ void opt_pair_across_store(A8 *ft_k, const A8 *ft) {
  int i = GID;
  ft_k[i].x = -ft[i].x * 2.0f; // measure: ld 4
  ft_k[i].y = -ft[i].y * 2.0f; // measure: st 4
}
// A float2 field read whole twice (passed by value) with nothing written
// between: one 8-byte load (BezierLineCDP's curvature).
struct Curve { float2 a, b, c; };
__device__ float len2(float2 v) { return sqrtf(v.x * v.x + v.y * v.y); }
__global__ void opt_cse_whole(const Curve *c, float *o) { // measure: ld_requests 1
  int i = GID;
  float2 d = c[i].b; // measure: ld 8
  o[i] = len2(d) / len2(c[i].b);
}
// A guard on a counted loop's counter (tx <= m, m = 15) lets lanes 0-15
// through: 16 words apart, 8-way over 16 lanes (Rodinia's
// Needleman-Wunsch anti-diagonal).
__global__ void sh_anti_diagonal(float *o) {
  __shared__ float t[17][17];
  int tx = threadIdx.x;
  for (int m = 15; m < 16; m++)
    if (tx <= m)
      t[m - tx + 1][tx + 1] = tx; // measure: shared_st 4
  __syncthreads();
  o[blockIdx.x * 32 + tx] = t[1][tx % 16];
}

// ------------------------------------------------------------------ occupancy
template <int N> __global__ void regs(const float *in, float *out) {
  float r[N];
  int i = GID;
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
__global__ void smem_static(const float *in, float *out) {
  __shared__ float t[10000];
  for (int k = threadIdx.x; k < 10000; k += blockDim.x)
    t[k] = in[k];
  __syncthreads();
  out[GID] = t[9999 - threadIdx.x];
}
__global__ void smem_dynamic(const float *in, float *out) {
  extern __shared__ float d[];
  d[threadIdx.x] = in[GID];
  __syncthreads();
  out[GID] = d[blockDim.x - 1 - threadIdx.x];
}

// ------------------------------------------------------------------- barriers
__global__ void bar_divergent(float *o, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 128) {
    __syncthreads(); // measure: barrier
    s[threadIdx.x] += s[threadIdx.x + 128];
  }
  o[GID] = s[threadIdx.x];
}
__global__ void bar_divergent_lanes(float *o, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x % 2) {
    __syncthreads(); // measure: barrier
    s[threadIdx.x] += s[threadIdx.x - 1];
  }
  o[GID] = s[threadIdx.x];
}
__global__ void bar_uniform(float *o, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (n > 0) {
    __syncthreads(); // measure: barrier
    s[threadIdx.x] += s[(threadIdx.x + 1) % 256];
  }
  o[GID] = s[threadIdx.x];
}
__global__ void bar_tail_guard(float *o, int n) {
  __shared__ float s[256];
  int i = GID;
  if (i >= n)
    return;
  s[threadIdx.x] = i;
  __syncthreads(); // measure: barrier
  o[i] = s[255 - threadIdx.x];
}

// ------------------------------------------------------------------- branches
// Bodies with a run-time trip count: a real branch, not predication.
__device__ float work(const float *a, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k] * s + 1.0f;
  return s;
}
__global__ void br_odd_lanes(const float *a, float *o, int n) {
  float v = 0;
  if (threadIdx.x % 2) // measure: branch
    v = work(a, n);
  o[GID] = v;
}
__global__ void br_half_warp(const float *a, float *o, int n) {
  float v = 0;
  if (threadIdx.x % 32 < 16) // measure: branch
    v = work(a, n);
  o[GID] = v;
}
__global__ void br_warp_uniform(const float *a, float *o, int n) {
  float v = 0;
  if ((threadIdx.x / 32) % 2) // measure: branch
    v = work(a, n);
  o[GID] = v;
}
__global__ void br_block_uniform(const float *a, float *o, int n) {
  float v = 0;
  if (blockIdx.x % 2) // measure: branch
    v = work(a, n);
  o[GID] = v;
}

// ---------------------------------------------------------------------- fp64
__global__ void fp64_literal(const float *a, float *o) {
  int i = GID;
  o[i] = a[i] * 0.5 + 1.0; // measure: fp64
}
__global__ void fp64_float_literal(const float *a, float *o) {
  int i = GID;
  o[i] = a[i] * 0.5f + 1.0f; // measure: fp64
}

// ---------------------------------------------------------------------- main
int main(int argc, char **argv) {
  // "barriers": only the barrier kernels (compute-sanitizer synccheck runs
  // them alone, a divergent barrier may hang the rest).
  bool Barriers = argc > 1 && !strcmp(argv[1], "barriers");
  const int n = 1 << 20;
  float *a, *o;
  cudaMalloc(&a, 64 * n * sizeof(float));
  cudaMalloc(&o, 64 * n * sizeof(float));
  cudaMemset(a, 0, 64 * n * sizeof(float));
  dim3 b(256), g(n / 256);
  if (Barriers) {
    bar_divergent<<<g, b>>>(o, n);
    bar_divergent_lanes<<<g, b>>>(o, n);
    bar_uniform<<<g, b>>>(o, n);
    bar_tail_guard<<<g, b>>>(o, n - 100);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
  }
  ld_float<<<g, b>>>(a, o);
  ld_double<<<g, b>>>((const double *)a, (double *)o);
  ld_float2<<<g, b>>>((const float2 *)a, (float2 *)o);
  ld_float4<<<g, b>>>((const float4 *)a, (float4 *)o);
  ld_double2<<<g, b>>>((const double2 *)a, (double2 *)o);
  ld_char<<<g, b>>>((const char *)a, (char *)o);
  ld_aos8<<<g, b>>>((const A8 *)a, o);
  ld_aos12<<<g, b>>>((const A12 *)a, o);
  ld_aos16<<<g, b>>>((const A16 *)a, o);
  ld_aos24<<<g, b>>>((const A24 *)a, o);
  ld_aos32<<<g, b>>>((const A32 *)a, o);
  ld_stride2<<<g, b>>>(a, o);
  ld_stride4<<<g, b>>>(a, o);
  ld_stride8<<<g, b>>>(a, o);
  ld_stride32<<<g, b>>>(a, o);
  ld_double_stride2<<<g, b>>>((const double *)a, (double *)o);
  ld_column<<<64, b>>>(a, o, 2048, 3);
  ld_broadcast<<<g, b>>>(a, o);
  ld_offset1<<<g, b>>>(a, o);
  ld_rows_16x16<<<dim3(64, 64), dim3(16, 16)>>>(a, o, 1024);
  st_aos12<<<g, b>>>((A12 *)o, a);
  st_stride2<<<g, b>>>(o, a);
  st_transpose_16x16<<<dim3(64, 64), dim3(16, 16)>>>(a, o, 1024);
  st_transpose_32x8<<<dim3(32, 128), dim3(32, 8)>>>(a, o, 1024);
  st_transpose_tiled_32x8<<<dim3(32, 32), dim3(32, 8)>>>(a, o, 1024);
  sh_column<<<64, dim3(32, 32)>>>(o);
  sh_column_padded<<<64, dim3(32, 32)>>>(o);
  sh_stride2<<<64, b>>>(o);
  sh_stride3<<<64, b>>>(o);
  sh_stride4<<<64, b>>>(o);
  sh_stride8<<<64, b>>>(o);
  sh_stride16<<<64, b>>>(o);
  sh_double<<<64, b>>>((double *)o);
  sh_double_stride2<<<64, b>>>((double *)o);
  sh_double_column<<<64, dim3(32, 32)>>>((double *)o);
  sh_broadcast<<<64, b>>>(o);
  sh_column_16x16<<<64, dim3(16, 16)>>>(o);
  sh_store_column<<<64, dim3(32, 32)>>>(o);
  opt_uchar4_merged<<<g, b>>>((const Pixel *)a, (int *)o);
  opt_shared_pair<<<64, b>>>(o);
  opt_shared_pair_stride4<<<64, b>>>(o);
  opt_cse<<<g, b>>>((const A12 *)a, o);
  opt_dse_16x16<<<dim3(64, 64), dim3(16, 16)>>>(a, o, 1024);
  opt_float2_across_store<<<g, b>>>((float2 *)o, (const float2 *)a);
  opt_pair_across_store<<<g, b>>>((A8 *)o, (const A8 *)a);
  opt_cse_whole<<<g, b>>>((const Curve *)a, o);
  sh_anti_diagonal<<<64, 32>>>(o);
  regs<16><<<g, 256>>>(a, o); // measure: occupancy
  regs<24><<<g, 256>>>(a, o); // measure: occupancy
  regs<32><<<g, 128>>>(a, o); // measure: occupancy
  smem_static<<<g, 128>>>(a, o); // measure: occupancy
  smem_dynamic<<<g, 256, 40000>>>(a, o); // measure: occupancy
  br_odd_lanes<<<g, b>>>(a, o, 4);
  br_half_warp<<<g, b>>>(a, o, 4);
  br_warp_uniform<<<g, b>>>(a, o, 4);
  br_block_uniform<<<g, b>>>(a, o, 4);
  fp64_literal<<<g, b>>>(a, o);
  fp64_float_literal<<<g, b>>>(a, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
