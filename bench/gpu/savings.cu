// What memory-uncoalesced-access says a fix saves, against what it saves on
// the GPU. Each shape, reduced from findings on real code, comes as the
// kernel as written (orig_*) and as fixed (fix_*: the layout or access the
// finding's note suggests). run_savings.sh measures both with Nsight
// Compute (L2 sectors from L1, DRAM bytes, time); compare_savings.py puts
// warplint's saving_pct (summed over the kernel's findings) beside the
// measured share of L2 sectors and of time the fix saves.
#include <cstdio>
#include <cuda_runtime.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)
struct P3 { float x, y, z; };
struct Pair { float a, b; };
struct Quad { float a, b, c, d; };

// 1. float3-like AoS rotated in place: the fields fill their sectors.
__global__ void orig_aos3_rotate(P3 *p) {
  int i = GID;
  float x = p[i].x, y = p[i].y, z = p[i].z;
  p[i].x = y;
  p[i].y = z;
  p[i].z = x;
}
__global__ void fix_aos3_rotate(float *x, float *y, float *z) {
  int i = GID;
  float a = x[i], b = y[i], c = z[i];
  x[i] = b;
  y[i] = c;
  z[i] = a;
}
// 2. Both fields of a pair: one float2 load would do.
__global__ void orig_pair_both(const Pair *in, float *out) {
  int i = GID;
  out[i] = in[i].a + in[i].b;
}
__global__ void fix_pair_both(const float2 *in, float *out) {
  int i = GID;
  float2 v = in[i];
  out[i] = v.x + v.y;
}
// 3. One field of a pair.
__global__ void orig_pair_one(const Pair *in, float *out) {
  int i = GID;
  out[i] = in[i].a;
}
__global__ void fix_pair_one(const float *a, float *out) {
  int i = GID;
  out[i] = a[i];
}
// 4. Two fields of four.
__global__ void orig_quad_two(const Quad *q, float *out) {
  int i = GID;
  out[i] = q[i].a + q[i].b;
}
__global__ void fix_quad_two(const float *a, const float *b, float *out) {
  int i = GID;
  out[i] = a[i] + b[i];
}
// 5. A strided read once per thread before a loop of coalesced reads.
__global__ void orig_once_before_loop(const float *a, const float *b,
                                      float *c) {
  int t = GID;
  float s = a[t * 4];
  for (int k = 0; k < 64; ++k)
    s += b[k * 4096 + (t & 4095)];
  c[t] = s;
}
__global__ void fix_once_before_loop(const float *a, const float *b,
                                     float *c) {
  int t = GID;
  float s = a[t];
  for (int k = 0; k < 64; ++k)
    s += b[k * 4096 + (t & 4095)];
  c[t] = s;
}
// 6. Stride 2 read, coalesced write.
__global__ void orig_stride2(const float *a, float *out) {
  int i = GID;
  out[i] = a[2 * i];
}
__global__ void fix_stride2(const float *a, float *out) {
  int i = GID;
  out[i] = a[i];
}
// 7. Stride 4 (16 bytes) read and write.
__global__ void orig_stride4_rw(float *a) {
  int i = GID;
  a[i * 4] += 1.0f;
}
__global__ void fix_stride4_rw(float *a) {
  int i = GID;
  a[i] += 1.0f;
}
// 8. A thread per row, the row length bounding the loop.
__global__ void orig_row_per_thread(const float *a, float *y, int n) {
  int row = GID;
  if (row < n) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[row * n + k];
    y[row] = s;
  }
}
__global__ void fix_row_per_thread(const float *at, float *y, int n) {
  int row = GID;
  if (row < n) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += at[k * n + row];
    y[row] = s;
  }
}
// 9. Naive transpose: the store is a column.
__global__ void orig_transpose(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
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
// 10. Neighbours read by one lane.
__global__ void orig_neighbours(const float *bW, float *out) {
  int m = 2 * GID;
  out[m / 2] = bW[m] * bW[m + 1];
}
__global__ void fix_neighbours(const float2 *bW, float *out) {
  int i = GID;
  float2 v = bW[i];
  out[i] = v.x * v.y;
}
// 11. One strided array among three coalesced ones.
__global__ void orig_mixed(const float *a, const float *b, const float *c,
                           const float *d, float *out) {
  int i = GID;
  out[i] = a[i] + b[i] + c[i] * d[8 * i];
}
__global__ void fix_mixed(const float *a, const float *b, const float *c,
                          const float *d, float *out) {
  int i = GID;
  out[i] = a[i] + b[i] + c[i] * d[i];
}
// 12. A 24-byte record read one 4-byte field.
struct Body { float px, py, pz, vx, vy, vz; };
__global__ void orig_body_field(const Body *b, float *out) {
  int i = GID;
  out[i] = b[i].vx;
}
__global__ void fix_body_field(const float *vx, float *out) {
  int i = GID;
  out[i] = vx[i];
}

int main() {
  const int N = 1 << 24, T = 256, B = N / T;
  float *a, *b, *c, *d, *o;
  size_t big = size_t(N) * 8 * sizeof(float);
  cudaMalloc(&a, big); cudaMalloc(&b, big); cudaMalloc(&c, big);
  cudaMalloc(&d, big); cudaMalloc(&o, big);
  cudaMemset(a, 0, big); cudaMemset(b, 0, big); cudaMemset(c, 0, big);
  cudaMemset(d, 0, big);
  for (int r = 0; r < 2; ++r) {
    orig_aos3_rotate<<<B, T>>>((P3 *)a);
    fix_aos3_rotate<<<B, T>>>(a, b, c);
    orig_pair_both<<<B, T>>>((Pair *)a, o);
    fix_pair_both<<<B, T>>>((float2 *)a, o);
    orig_pair_one<<<B, T>>>((Pair *)a, o);
    fix_pair_one<<<B, T>>>(a, o);
    orig_quad_two<<<B, T>>>((Quad *)a, o);
    fix_quad_two<<<B, T>>>(a, b, o);
    orig_once_before_loop<<<B, T>>>(a, b, o);
    fix_once_before_loop<<<B, T>>>(a, b, o);
    orig_stride2<<<B, T>>>(a, o);
    fix_stride2<<<B, T>>>(a, o);
    orig_stride4_rw<<<B, T>>>(a);
    fix_stride4_rw<<<B, T>>>(a);
    const int R = 8192;
    orig_row_per_thread<<<R / T, T>>>(a, o, R);
    fix_row_per_thread<<<R / T, T>>>(a, o, R);
    const int M = 4096;
    orig_transpose<<<dim3(M / 32, M / 8), dim3(32, 8)>>>(a, o, M);
    fix_transpose<<<dim3(M / 32, M / 32), dim3(32, 8)>>>(a, o, M);
    orig_neighbours<<<B, T>>>(a, o);
    fix_neighbours<<<B, T>>>((float2 *)a, o);
    orig_mixed<<<B, T>>>(a, b, c, d, o);
    fix_mixed<<<B, T>>>(a, b, c, d, o);
    orig_body_field<<<B, T>>>((Body *)a, o);
    fix_body_field<<<B, T>>>(a, o);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
