// With the IR layer (the default): what stays a divergent branch at -O3
// (IR), and without it, the AST verdict (AST); CHECK lines hold for both.
// The new patterns (lambdas, nested loop counters, tail guards, halos) and
// the select look-alikes are in divergence-subwarp-branch-optimised.cu.
// RUN: %warplint --checks='-*,divergence-subwarp-branch' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefixes=CHECK,IR --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --ir-layer=false --checks='-*,divergence-subwarp-branch' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefixes=CHECK,AST --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --ir-layer=false --checks='-*,divergence-subwarp-branch' --arch=sm_80 --config-file=%S/Inputs/single-lane.yaml %s -- -std=c++17 | FileCheck %s --check-prefix=OPTION
#include <cuda_runtime.h>

// ---- positives

// The Pascal deep dive's example. At -O3 the two stores become one store of
// a select: no branch is left (IR), the AST verdict reports it.
__global__ void pascal_example(float *a) {
  if (threadIdx.x > 2)
    a[threadIdx.x] = 1.0f;
  else
    a[threadIdx.x] = 2.0f;
  // AST: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x > 2' sends lanes 3-31 one way and lanes 0-2 the other in warp 0 (of a 1-D block: no launch of this kernel with a literal block shape was found); the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // AST: :[[@LINE-4]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
}

// Read-modify-writes of one element under lane conditions: selects at -O3;
// one-sided and a couple of operations in the AST's reading (packing the
// lanes would cost more than the branch).
__global__ void parity(float *a) {
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x] *= 2.0f;
  if (threadIdx.x & 1)
    a[threadIdx.x] += 1.0f;
}

__device__ int lane_id() { return threadIdx.x % 32; }

// One load and one store at -O3: 6 instructions, what predication costs.
__global__ void half_warp(float *a) {
  int lane = lane_id();
  if (lane < 16) {
    a[threadIdx.x] += 1.0f;
    a[threadIdx.x] *= 3.0f;
  }
}

// A 16x16 block puts two rows of threadIdx.x in each warp; the launch is
// found, so no 1-D block is assumed.
__global__ void two_d(float *a, const float *b) {
  int i = threadIdx.y * 16 + threadIdx.x;
  if (threadIdx.x < 8)
    a[i] = b[i] * b[i + 256] + b[i + 512] / b[i + 768];
  else
    a[i] = b[i + 1024] / b[i + 1280] - b[i + 1536] * b[i + 1792];
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x < 8' sends lanes 0-7, 16-23 one way and lanes 8-15, 24-31 the other in all 8 warps of the block; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // AST: :[[@LINE-4]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
  // IR: :[[@LINE-5]]:5: note: cost at -O3: the warp runs both sides, {{[0-9]+}} and {{[0-9]+}} instructions, with part of its lanes idle in each
}
void launch_two_d(float *a, const float *b) { two_d<<<1, dim3(16, 16)>>>(a, b); }

// A loop's trip count is judged on the source in both layers.
__global__ void thread_loop(float *a) {
  for (int k = 0; k < (int)threadIdx.x % 4; ++k)
    a[threadIdx.x] += k;
  // CHECK: :[[@LINE-2]]:19: warning: loop trip count differs between the lanes of a warp: its bound '(int)threadIdx.x % 4' ranges from 0 to 3 in warp 0; the warp keeps iterating until its last lane is done
}

// One store on one path: no more than predication at -O3.
__global__ void switch_lanes(float *a) {
  switch (threadIdx.x % 3) {
  // AST: :[[@LINE-1]]:11: warning: branch splits the lanes of a warp: 'threadIdx.x % 3' takes 3 different values in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found)
  case 0:
    a[0] = 1.0f;
    break;
  default:
    break;
  }
}

__device__ float work(float x) { return x * 2.0f; }

// Both become selects once work() is inlined. Without the IR layer the ?:
// has two sides with calls; the && is one-sided and light.
__global__ void ternary_and_logical(float *a) {
  float v = (threadIdx.x % 4 == 0) ? work(a[0]) : work(a[1]);
  // AST: :[[@LINE-1]]:13: warning: branch splits the lanes of a warp: '(threadIdx.x % 4 == 0)' sends 8 lanes one way and 24 lanes the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found)
  bool ok = threadIdx.x % 8 == 1 && work(v) > 0.0f;
  a[threadIdx.x] = ok ? v : 0.0f; // a select: no branch
}

// Harris' interleaved reduction: the first iterations split every warp.
__global__ void interleaved_reduction(float *a) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (tid % (2 * k) == 0)
      s[tid] += s[tid + k];
    // CHECK: :[[@LINE-2]]:9: warning: branch splits the lanes of a warp: 'tid % (2 * k) == 0' sends the 16 even lanes one way and the 16 odd lanes the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found) when k = 1 (the first iteration of the loop)
    // AST: :[[@LINE-2]]:7: note: cost: 16 of 32 lanes idle
    // IR: :[[@LINE-3]]:7: note: cost at -O3: 16 of 32 lanes idle while the others run the 7 instructions of the branch
    __syncthreads();
  }
}

// ---- negatives

__global__ void fine(float *a, int n, const int *flags) {
  unsigned tid = threadIdx.x;
  int lane = tid % 32, warp = tid / 32;
  if (tid / 32 > 2)           // the Pascal deep dive's fix: whole warps
    a[tid] = 0.0f;
  if (warp == 1)              // a warp id
    a[tid] = 1.0f;
  if (tid < 64)               // a multiple of the warp size
    a[tid] = 2.0f;
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n)                  // tail guard against a run-time bound
    a[i] = 3.0f;
  if (blockIdx.x == 0)        // block-uniform
    a[tid] = 4.0f;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)
    if (tid < s)              // tree reduction: s unknown here
      a[tid] += a[tid + s];
  for (int j = i; j < n; j += blockDim.x * gridDim.x) // grid-stride loop
    a[j] = 5.0f;
  if (flags[tid])             // data-dependent: not provable
    a[tid] = 6.0f;
  float v = lane < 16 ? a[0] : a[1]; // a select
  v += threadIdx.x < 8 ? a[threadIdx.x] : 0.0f; // a select too
  a[tid] += v;
  if (lane == 0)              // one lane publishes the warp's result
    a[warp] = 7.0f;
  if (lane != 0)              // ... and the others skip it
    a[tid] = 8.0f;
  if (tid % 16 == 0)          // one lane per half-warp tile
    a[tid / 16] = 9.0f;
  if (tid % 32 == 31)         // the last lane holds a scan's total
    a[warp] += 1.0f;
  if (tid < 16)               // a tree reduction's tail step
    a[tid] += a[tid + 16];
  if (tid % 32 == 5)          // one lane, whichever: a special case
    a[0] = 10.0f;
}


// One lane at a time, in turn: a lane-serialising loop (atomics one lane
// after another). One lane per warp is exempt by default; the option
// reports it.
__global__ void in_turn(float *a, const float *b) {
  unsigned lane = threadIdx.x % 32;
  for (unsigned k = 0; k < 32; ++k)
    if (lane == k)
      atomicAdd(&a[0], b[threadIdx.x] * b[k]);
  // OPTION: :[[@LINE-2]]:9: warning: branch splits the lanes of a warp: 'lane == k' sends lane 0 one way and lanes 1-31 the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found) when k = 0 (the first iteration of the loop)
}

// ---- one-sided branches outside loops that change their lanes: the warp
// issues the body once whether or not every lane runs it; reported only
// where packing the lanes into fewer warps saves a real share of the kernel

__device__ float heavy(const float *b, int n, float v) {
  for (int k = 0; k < n; ++k)
    v = v * b[k] + (v > 1.0f ? b[k + 1] : 2.0f) / (b[k + 2] + 3.0f);
  return v;
}

// A 4x4 colour block per CTA: 16 lanes of warp 0 analyse it, once. No
// assignment of 16 items to lanes issues fewer warps.
__global__ void one_colour_block(float *a, const float *b, int n) {
  float v = b[threadIdx.x];
  if (threadIdx.x < 16)
    v = heavy(b, n, v);
  a[threadIdx.x] = v;
}

// Boundary columns in each step of a window loop: the same 3 lanes every
// iteration, one warp (a condition the loop does not change).
__global__ void boundary_columns(float *a, const float *b, int n, int steps) {
  float v = b[threadIdx.x];
  for (int w = 0; w < steps; ++w) {
    v += b[w * 64 + threadIdx.x];
    if (threadIdx.x < 3)
      v = heavy(b + w, n, v);
  }
  a[threadIdx.x] = v;
}

// The first lane of each group of 4 stores the group's result once; the
// block is one warp, so one warp would run it anyway.
__global__ void group_leaders(float *out, const float *x) {
  unsigned lane = threadIdx.x, group = lane / 4;
  float q = x[blockIdx.x * 32 + lane] * 7.0f;
  if (lane % 4 == 0) {
    out[blockIdx.x * 16 + group] = q;
    out[blockIdx.x * 16 + 8 + group] = q * q;
  }
}

// Half of every warp stores a result in a long kernel: the store is a small
// share of the work the warps do.
__global__ void half_warp_store(float *a, const float *b, int n) {
  float v = b[threadIdx.x], w = b[threadIdx.x + 32];
  for (int k = 0; k < n; ++k) {
    float x = b[k], y = b[k + 1], z = b[k + 2];
    v = v * x + y / (z + 1.0f);
    w = w * y - x / (v + 2.0f);
    if (v > w)
      v -= w * z;
    else
      w += v * x;
    v = fmaxf(v, y) + fminf(w, z);
  }
  if (threadIdx.x % 32 < 16) {
    a[threadIdx.x] = v;
    a[threadIdx.x + 1024] = v * v;
  }
}
void launch_one_sided(float *a, const float *b, int n) {
  one_colour_block<<<n, 64>>>(a, b, n);
  boundary_columns<<<n, 64>>>(a, b, n, 8);
  group_leaders<<<n, 32>>>(a, b);
  half_warp_store<<<n, 256>>>(a, b, n);
}

// ---- a helper judged under the launches of the kernels that call it

__device__ float row_work(const float *in, int i) {
  float acc = 0.f;
  for (int k = 0; k < 64; ++k)
    acc += in[i + k] * in[i + 2 * k] + 1.0f / (in[i + 3 * k] + 2.0f);
  return acc;
}

// Called only from a kernel of 16x16 blocks: each warp holds rows y and
// y + 1, and the branch on the row splits it in halves.
__device__ void first_row_16(const float *in, float *out, int i) {
  if (threadIdx.y == 0)
    out[i] = row_work(in, i);
  else
    out[i] = row_work(in + 7, i) * 2.0f;
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'threadIdx.y == 0' sends lanes 0-15 one way and lanes 16-31 the other in warp 0; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // IR: :[[@LINE-4]]:5: note: cost at -O3: the warp runs both sides, 42 and 44 instructions, with part of its lanes idle in each
  // AST: :[[@LINE-5]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
}
__global__ void rows_16(const float *in, float *out) {
  first_row_16(in, out, blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x);
}

// The same helper called only from a kernel of 32x8 blocks: a warp is one
// row, so the branch splits no warp.
__device__ void first_row_32(const float *in, float *out, int i) {
  if (threadIdx.y == 0)
    out[i] = row_work(in, i);
  else
    out[i] = row_work(in + 7, i) * 2.0f;
}
__global__ void rows_32(const float *in, float *out) {
  first_row_32(in, out, blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x);
}
void launch_rows(const float *in, float *out) {
  rows_16<<<4, dim3(16, 16)>>>(in, out);
  rows_32<<<4, dim3(32, 8)>>>(in, out);
}

// A helper whose lane comes in as a parameter: each call passes
// threadIdx.x % 32, so `lane < 8` is judged lane by lane at the launch.
__device__ void lane_split(float *out, const float *in, unsigned lane, int i) {
  if (lane < 8)
    out[i] = row_work(in, i);
  else
    out[i] = row_work(in + 5, i) * 0.5f;
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'lane < 8' sends lanes 0-7 one way and lanes 8-31 the other in all 8 warps of the block; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // IR: :[[@LINE-4]]:5: note: cost at -O3: the warp runs both sides, {{[0-9]+}} and {{[0-9]+}} instructions, with part of its lanes idle in each
  // AST: :[[@LINE-5]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
}
// The same helper shape called with a value every thread shares (the
// block's row count): the branch is uniform and splits no warp.
__device__ void count_split(float *out, const float *in, unsigned count,
                            int i) {
  if (count < 8)
    out[i] = row_work(in, i);
  else
    out[i] = row_work(in + 5, i) * 0.5f;
}
__global__ void lanes_bound(const float *in, float *out, unsigned rows) {
  int i = blockIdx.x * 256 + threadIdx.x;
  lane_split(out, in, threadIdx.x % 32, i);
  count_split(out, in, rows, i);
}
void launch_lanes(const float *in, float *out, unsigned rows) {
  lanes_bound<<<4, 256>>>(in, out, rows);
}

// A lane from a helper of two statements, two calls deep, and one assigned
// after its declaration: values the lane evaluator takes from the affine
// forms of the memory checks, so both see the same lane.
__device__ unsigned lane_of(unsigned t) {
  unsigned l = t & 31;
  return l;
}
__device__ unsigned lane_deep(unsigned t) {
  unsigned q = lane_of(t);
  return q;
}
__global__ void lanes_from_forms(const float *in, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  unsigned lane = lane_deep(threadIdx.x);
  if (lane < 8)
    out[i] = row_work(in, i);
  else
    out[i] = row_work(in + 5, i) * 0.5f;
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'lane < 8' sends lanes 0-7 one way and lanes 8-31 the other in all 8 warps of the block; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // IR: :[[@LINE-4]]:5: note: cost at -O3: the warp runs both sides, {{[0-9]+}} and {{[0-9]+}} instructions, with part of its lanes idle in each
  // AST: :[[@LINE-5]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
  unsigned sub;
  sub = threadIdx.x % 32;
  if (sub >= 24)
    out[i] = row_work(in + 7, i);
  else
    out[i] = row_work(in + 9, i) * 0.25f;
  // CHECK: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'sub >= 24' sends lanes 24-31 one way and lanes 0-23 the other in all 8 warps of the block; the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // IR: :[[@LINE-4]]:5: note: cost at -O3: the warp runs both sides, {{[0-9]+}} and {{[0-9]+}} instructions, with part of its lanes idle in each
  // AST: :[[@LINE-5]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
  // The first thread of the warp, assigned the same way: the same in every
  // lane of a warp, so the branch splits whole warps only.
  unsigned first;
  first = threadIdx.x - threadIdx.x % 32;
  if (first < 64)
    out[i] = row_work(in + 11, i);
  else
    out[i] = row_work(in + 13, i) * 0.125f;
}
void launch_from_forms(const float *in, float *out) {
  lanes_from_forms<<<4, 256>>>(in, out);
}

// A helper no kernel of this file calls: with the IR layer, no code is
// generated for it here, and the file whose kernels call it judges it; the
// AST verdict stands without the IR layer.
__device__ void unreached_split(float *out, const float *in) {
  if (threadIdx.x % 32 < 8)
    out[threadIdx.x] = row_work(in, threadIdx.x);
  else
    out[threadIdx.x] = row_work(in + 3, threadIdx.x) * 0.5f;
  // AST: :[[@LINE-4]]:7: warning: branch splits the lanes of a warp: 'threadIdx.x % 32 < 8' sends lanes 0-7 one way and lanes 8-31 the other in every warp (of a 1-D block: no launch of this kernel with a literal block shape was found); the warp runs the paths one after the other (branch granularity below warpSize 32; Pascal deep dive, Control Flow) [divergence-subwarp-branch]
  // AST: :[[@LINE-4]]:5: note: cost: the warp executes both sides, 1 statement(s) then 1, with part of its lanes idle in each
}
