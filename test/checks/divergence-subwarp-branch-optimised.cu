// divergence-subwarp-branch on what the optimiser leaves (IR), with the AST
// verdict where the IR layer is off (AST); CHECK lines hold for both.
// RUN: %warplint --checks='-*,divergence-subwarp-branch' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefixes=CHECK,IR --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --ir-layer=false --checks='-*,divergence-subwarp-branch' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefixes=CHECK,AST --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,divergence-subwarp-branch' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

// ---- `if (lane_cond) local = expr;`: a select, no branch (both layers)

__global__ void select_local(float *a, const float *b) {
  unsigned tid = threadIdx.x;
  float v = b[tid];
  if (tid & 1)
    v = v * 2.0f + 1.0f;
  a[tid] = v;
}

// A struct built from registers (the SDK's shfl_integral_image): selects at
// -O3, and the AST layer's reading of make_uint4 agrees.
__global__ void select_struct(uint4 *out, const unsigned *in) {
  unsigned r0 = in[threadIdx.x], r1 = r0 + 1, r2 = r0 + 2, r3 = r0 + 3;
  uint4 o = make_uint4(0, 0, 0, 0);
  if (threadIdx.x % 4 == 0) {
    o = make_uint4(r0, r1, r2, r3);
  }
  if (threadIdx.x % 4 == 1) {
    o = make_uint4(r3, r2, r1, r0);
  }
  out[threadIdx.x] = o;
}

// One load under a lane condition: a branch over one load at -O3, no more
// than predication costs; one-sided and light in the AST's reading too.
__global__ void one_load(float *a, const float *b) {
  unsigned tid = threadIdx.x;
  float v = 0.0f;
  if (tid % 4 == 0)
    v = b[tid];
  a[tid] = v;
}

// ---- real work on the two sides: a divergent branch at -O3

__global__ void real_split(float *a, const float *b, int n) {
  unsigned tid = threadIdx.x;
  float v = b[tid];
  if (tid & 1) {
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  } else {
    for (int k = 0; k < n; ++k)
      v = v / b[k] - 1.0f;
  }
  // CHECK: :[[@LINE-7]]:7: warning: branch splits the lanes of a warp: 'tid & 1' sends the 16 odd lanes one way and the 16 even lanes the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found); the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // AST: :[[@LINE-8]]:16: note: cost: the warp executes both sides, 2 statement(s) then 2, with part of its lanes idle in each
  // IR: :[[@LINE-9]]:16: note: cost at -O3: the warp runs both sides, 69 and 69 instructions, with part of its lanes idle in each
  a[tid] = v;
}
// JSON: "line": 47,
// JSON: "instructions_side_1": 69.0,
// JSON-NEXT: "instructions_side_2": 69.0

// ---- a condition written as a lambda

__global__ void lambda_cond(float *a, const float *b, int n) {
  auto odd = [](unsigned t) { return (t & 1) != 0; };
  auto odd_warp = [](unsigned t) { return ((t / 32) & 1) != 0; };
  float v = b[threadIdx.x];
  if (odd(threadIdx.x)) {
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  }
  // IR: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'odd(threadIdx.x)' sends the 16 odd lanes one way and the 16 even lanes the other in every warp
  // IR: :[[@LINE-5]]:25: note: cost at -O3: 16 of 32 lanes idle while the others run the 68 instructions of the branch
  if (odd_warp(threadIdx.x)) { // whole warps: no split
    for (int k = 0; k < n; ++k)
      v = v * b[k] - 1.0f;
  }
  a[threadIdx.x] = v;
}

// ---- an inner loop counter that starts from an outer one (bitonic sort)

__global__ void bitonic(float *a) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  for (unsigned k = 2; k <= 256; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        float x = s[tid], y = s[ixj];
        if ((x > y) == ((tid & k) == 0)) {
          s[tid] = y;
          s[ixj] = x;
        }
      }
      // CHECK: :[[@LINE-7]]:11: warning: branch splits the lanes of a warp: 'ixj > tid' sends the 16 even lanes one way and the 16 odd lanes the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found) when k = 2, j = 1 (the first iteration of the loop)
      // AST: :[[@LINE-8]]:22: note: cost: 16 of 32 lanes idle while the others run the 4 statement(s) of the branch
      // IR: :[[@LINE-9]]:22: note: cost at -O3: 16 of 32 lanes idle while the others run the 11 instructions of the branch
      __syncthreads();
    }
  }
  a[tid] = s[tid];
}

// The same steps from j = 32 on: whole warps on each side.
__global__ void bitonic_wide(float *a) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  for (unsigned k = 64; k <= 256; k <<= 1) {
    for (unsigned j = k >> 1; j >= 32; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        float x = s[tid], y = s[ixj];
        if (x > y) {
          s[tid] = y;
          s[ixj] = x;
        }
      }
      __syncthreads();
    }
  }
  a[tid] = s[tid];
}

// ---- a tail guard beside a lane condition

__global__ void guarded_parity(float *a, const float *b, const int *flags,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = b[i];
  if (i < n && (threadIdx.x & 1)) {
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  }
  // IR: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'i < n && (threadIdx.x & 1)' sends the 16 odd lanes one way and the 16 even lanes the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found) where 'i < n' holds;
  // IR: :[[@LINE-5]]:35: note: cost at -O3: 16 of 32 lanes idle while the others run the 69 instructions of the branch
  if (i < n && ((threadIdx.x / 32) & 1)) { // whole warps
    for (int k = 0; k < n; ++k)
      v = v * b[k] - 1.0f;
  }
  if (flags[i] && (threadIdx.x & 1)) { // data: not provable
    for (int k = 0; k < n; ++k)
      v = v * b[k] - 2.0f;
  }
  a[i] = v;
}

// ---- a 2-D halo (not a reduction step), and a reduction step

#define TILE 16
#define R 2
// Halo cells computed from their neighbours: 4 lanes in each of the 8 warps
// run it, where one warp would hold them.
__global__ void halo(const float *in, float *out, int w) {
  __shared__ float tile[TILE][TILE + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  tile[ty][tx + R] = in[y * w + x];
  if (tx < R) {
    tile[ty][tx] = sqrtf(in[y * w + x - R] * in[(y + 1) * w + x - R] +
                         in[(y + 2) * w + x - R]) / in[(y + 3) * w + x - R];
    tile[ty][tx + TILE + R] =
        sqrtf(in[y * w + x + TILE] * in[(y + 1) * w + x + TILE] +
              in[(y + 2) * w + x + TILE]) / in[(y + 3) * w + x + TILE];
  }
  // IR: :[[@LINE-7]]:7: warning: branch splits the lanes of a warp: 'tx < R' sends lanes 0-1, 16-17 one way and lanes 2-15, 18-31 the other in all 8 warps of the block;
  // IR: :[[@LINE-8]]:15: note: cost at -O3: 28 of 32 lanes idle while the others run the {{[0-9]+}} instructions of the branch; its 32 lanes sit in 8 warps where 1 would hold them
  __syncthreads();
  out[y * w + x] = tile[ty][tx] + tile[ty][tx + 2 * R];
}

// A plain halo load: two loads and two stores in the 4 lanes, under what
// packing the lanes would cost. Not reported.
__global__ void halo_load(const float *in, float *out, int w) {
  __shared__ float tile[TILE][TILE + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  tile[ty][tx + R] = in[y * w + x];
  if (tx < R) {
    tile[ty][tx] = in[y * w + x - R];
    tile[ty][tx + TILE + R] = in[y * w + x + TILE];
  }
  __syncthreads();
  out[y * w + x] = tile[ty][tx] + tile[ty][tx + 2 * R];
}

// A reduction step of the same shape: the body reads the array it writes
// R further on.
__global__ void reduce_step(float *out) {
  __shared__ float s[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = out[ty * TILE + tx];
  __syncthreads();
  if (tx < R)
    s[ty][tx] += s[ty][tx + R] + s[ty][tx + 2 * R];
  __syncthreads();
  out[ty * TILE + tx] = s[ty][tx];
}
void launch_halo(const float *in, float *out, int w) {
  halo<<<dim3(8, 8), dim3(TILE, TILE)>>>(in, out, w);
  halo_load<<<dim3(8, 8), dim3(TILE, TILE)>>>(in, out, w);
  reduce_step<<<1, dim3(TILE, TILE)>>>(out);
}

// ---- a role of a few threads of one warp, once per block or in each step
// of a loop that does not change them: no other assignment of the 3 items
// issues fewer warps; not reported

__global__ void boundary_role(float *a, const float *b, int n) {
  float v = b[threadIdx.x];
  if (threadIdx.x < 3) { // boundary columns, once per block
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  }
  for (int r = 0; r < n; ++r) {
    if (threadIdx.x < 3) {
      for (int k = 0; k < n; ++k)
        v = v * b[k + r] - 1.0f;
    }
  }
  a[threadIdx.x] = v;
}
