// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

struct Position {
  float x, y, z;
};

// The Pascal deep dive's example: 4 useful bytes out of every 12.
__global__ void aos_field(const Position *data, float *out) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = data[idx].y;
  // CHECK: :[[@LINE-1]]:14: warning: each warp load of 'data[idx].y' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart; it moves about 75% of the kernel's global sectors, and laying the data out for the warp would save about 50% of them [memory-uncoalesced-access]
  // CHECK: memory-uncoalesced-access.cu:6:8: note: 'Position' is 12 bytes and is moved 4 bytes at a time: as a structure of arrays (one array per field) a warp would read 128 contiguous bytes per request (Pascal deep dive, 'Structures of Non-Native Size')
  // PASCAL: :[[@LINE-3]]:14: warning: each warp load of 'data[idx].y' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_60
  // PASCAL: note: on sm_60 global loads are cached in L2 only; if 'data' is read-only in the kernel, 'const __restrict__' or __ldg()
  // JSON: "sectors_per_request": 12
  // JSON: "bytes_used_pct": 33
}

// "Structures of Non-Native Size": copying the whole 12-byte struct is
// three 4-byte loads at a 12-byte stride, which together use every byte of
// the sectors they move: L1 work, not bandwidth (a note; an H100 runs the
// AoS rotation no slower than SoA, bench/gpu/savings-h100-sm90.csv).
__global__ void aos_copy(const Position *data, Position *out) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  Position temp = data[idx];
  // CHECK: :[[@LINE-1]]:19: note: each warp load of 'data[idx]' touches 12 32-byte sectors for 128 useful bytes (33% efficiency)
  // CHECK: memory-uncoalesced-access.cu:6:8: note: 'Position' is 12 bytes
  temp.x += 1.0f;
  out[idx] = temp;
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[idx]' touches 12 32-byte sectors
  // CHECK: memory-uncoalesced-access.cu:6:8: note: 'Position' is 12 bytes
}

__global__ void strided(const float *a, float *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * 8];
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'a[i * 8]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart
  // CHECK: :[[@LINE-2]]:12: note: stage the data through shared memory
  out[i] += a[2 * i + 1];
  // CHECK: :[[@LINE-1]]:13: note: each warp load of 'a[2 * i + 1]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 10% of the kernel's global sectors, and laying the data out for the warp would save about 5% of them [memory-uncoalesced-access]
  // A column-major walk: lanes a row apart.
  out[i] += a[i * n + k];
  // CHECK: :[[@LINE-1]]:13: note: each warp load of 'a[i * n + k]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (n * 4) bytes, a run-time value
}

// Through a helper, a local pointer and a grid-stride loop.
__device__ int global_id() { return blockIdx.x * blockDim.x + threadIdx.x; }
__global__ void through_helpers(float *data, int n) {
  float *base = data + 1;
  for (int i = global_id(); i < n; i += blockDim.x * gridDim.x)
    base[i * 4] += 1.0f;
  // CHECK: :[[@LINE-1]]:5: warning: each warp load and store of 'base[i * 4]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency)
  // CHECK: :[[@LINE-2]]:5: note: stage the data
}

// One component of a float4 at a time: 4 bytes of every 16.
__global__ void vector_component(const float4 *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v[i].w;
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'v[i].w' touches 16 32-byte sectors for 128 useful bytes (25% efficiency)
  // CHECK: :[[@LINE-2]]:12: note: load the whole 'float4' once (one 16-byte load per lane) and use its components
}

// Device arrays passed in a struct by value are global memory too.
struct Scene {
  Position *points;
  float *weights;
};
__global__ void through_struct(Scene s, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s.points[i].z * s.weights[i];
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 's.points[i].z' touches 12 32-byte sectors for 128 useful bytes (33% efficiency)
  // CHECK: memory-uncoalesced-access.cu:6:8: note: 'Position' is 12 bytes
}

// Nested structs: the lanes walk the 24-byte Body, not its 12-byte Position;
// a read through __ldg is a load like any other.
struct Body {
  Position pos, vel;
};
__global__ void nested(const Body *b, const float *w, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = b[i].vel.x + __ldg(&w[i * 4]);
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'b[i].vel.x' touches 24 32-byte sectors for 128 useful bytes (17% efficiency)
  // CHECK: memory-uncoalesced-access.cu:[[@LINE-7]]:8: note: 'Body' is 24 bytes and is moved 4 bytes at a time
  // CHECK: :[[@LINE-3]]:25: warning: each warp load of '__ldg(&w[i * 4])' touches 16 32-byte sectors for 128 useful bytes (25% efficiency)
  // CHECK: :[[@LINE-4]]:25: note: stage the data
}

// The naive transpose: reads are coalesced, writes stride by a row.
__global__ void transpose_naive(float *out, const float *in, int width,
                                int height) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
  // CHECK: :[[@LINE-1]]:5: warning: each warp store of 'out[x * height + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (height * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:5: note: stage the data through shared memory
}

// Without a launch in the TU the warp is assumed to run along x: the
// verdict then depends on that assumption, and the message says so.
__global__ void rows_of_pairs(float *out, int n) {
  out[threadIdx.y * n + threadIdx.x * 2] = 0.0f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp store of 'out[threadIdx.y * n + threadIdx.x * 2]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart (assuming blockDim.x is a multiple of 32)
  // CHECK: :[[@LINE-2]]:3: note: stage the data
}

// With 16x16 blocks a warp covers two half rows: 4 sectors for 128 bytes,
// as good as it gets.
__global__ void half_rows(float *out, int n) {
  out[threadIdx.y * n + threadIdx.x] = 0.0f;
}

// Inside a macro: the access is named by the macro's invocation, as written
// where the finding is, and a note shows where the macro's body spells it.
// Two accesses of one invocation are two findings, at their arguments.
#define DOT(a, b) (a[threadIdx.x * 4] * b[threadIdx.x * 4])
#define AT(p) p[threadIdx.x * 2]
#define TWICE(v) (2.0f * (v))
__global__ void in_macros(const float *x, const float *y, float *out) {
  out[threadIdx.x] = DOT(x, y);
  // CHECK: :[[@LINE-1]]:26: warning: each warp load of 'DOT(x, y)' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; it moves about 27% of the kernel's global sectors, and laying the data out for the warp would save about 20% of them [memory-uncoalesced-access]
  // CHECK: memory-uncoalesced-access.cu:[[@LINE-6]]:20: note: expanded from macro 'DOT'
  // CHECK: :[[@LINE-3]]:29: warning: each warp load of 'DOT(x, y)' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; it moves about 27% of the kernel's global sectors, and laying the data out for the warp would save about 20% of them [memory-uncoalesced-access]
  // CHECK: memory-uncoalesced-access.cu:[[@LINE-8]]:41: note: expanded from macro 'DOT'
  out[threadIdx.x] += AT(y);
  // CHECK: :[[@LINE-1]]:26: note: each warp load of 'AT(y)' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 13% of the kernel's global sectors, and laying the data out for the warp would save about 7% of them [memory-uncoalesced-access]
  // CHECK: memory-uncoalesced-access.cu:[[@LINE-10]]:15: note: expanded from macro 'AT'
  // Written whole in a macro's argument: named as written, no macro note.
  out[threadIdx.x] += TWICE(x[threadIdx.x * 2]);
  // CHECK: :[[@LINE-1]]:29: note: each warp load of 'x[threadIdx.x * 2]' touches 8 32-byte sectors
  // CHECK-NOT: expanded from macro 'TWICE'
}

// --- Fine: no finding below this line. ---

// Unit stride of any element size, and a misaligned but contiguous read.
__global__ void unit_stride(const float *f, const float4 *f4, const double *d,
                            float *out, float4 *out4, double *outd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = f[i] + f[i + 1];
    out4[i] = f4[i];
    float4 v = f4[i];
    outd[i] = d[i] + v.x;
    out4[i] = reinterpret_cast<const float4 *>(f)[i];
  }
}

// Structure of arrays.
struct Particles {
  float *x, *y, *z;
};
__global__ void soa(Particles p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p.x[i] += dt * p.y[i] * p.z[i];
}

// Broadcasts: every lane reads the same address.
__global__ void broadcast(const float *a, float *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[blockIdx.x] + a[0] + a[k] + a[threadIdx.x / 32];
}

// A naive matrix multiply: A's row is the same in every lane of a warp,
// B's column runs with the lane.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

// The tiled transpose through shared memory.
__global__ void transpose_tiled(float *out, const float *in, int width,
                                int height) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Shared and local memory and gathers the analysis cannot see through:
// silent. A device function's pointer parameter is judged where a kernel
// passes it: here 'out', global memory, with lanes 8 floats apart.
__constant__ float coeffs[64];
__device__ void scale_any(float *p) { p[threadIdx.x * 8] *= 2.0f; }
// CHECK: :[[@LINE-1]]:39: warning: each warp load and store of 'p[threadIdx.x * 8]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart; it moves about 67% of the kernel's global sectors, and laying the data out for the warp would save about 58% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+8]]:3: note: 'scale_any' called from 'not_global' with p = out
__global__ void not_global(const int *idx, float *a, float *out) {
  __shared__ float s[256 * 8];
  float local[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x * 8] = a[i];
  local[i % 8] = s[threadIdx.x];
  out[i] = a[idx[i]] + local[0] + coeffs[threadIdx.x * 2];
  scale_any(out);
}

int main() {
  float *a;
  cudaMalloc(&a, 1 << 20);
  transpose_naive<<<dim3(32, 32), dim3(32, 8)>>>(a, a, 1024, 1024);
  dim3 block(16, 16);
  half_rows<<<1, block>>>(a, 1024);
  return 0;
}

// A descending walk is as coalesced as an ascending one: lane 0 has the
// highest address, and the warp's lowest is the aligned one (4 sectors).
__global__ void reversed(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[n - i];
}
// ...and a descending walk over float2 halves is judged like an ascending
// one: 8 sectors for 128 useful bytes, not 9.
__global__ void reversed_half(const float2 *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[n - i].x;
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'in[n - i].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 67% of the kernel's global sectors, and laying the data out for the warp would save about 33% of them [memory-uncoalesced-access]
}
