// The IR layer's divergence-barrier stays silent on the idioms that look
// like divergent barriers and are not: every thread of the block reaches
// each barrier below.
// REQUIRES: cuda-toolkit
// RUN: %warplint --checks='-*,divergence-barrier' --ir-layer=only --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Tree reduction: the trip count depends on blockDim only.
__global__ void tree_reduce(const float *in, float *out) {
  extern __shared__ float s[];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A barrier at the top of a uniform loop, divergent work after it.
__global__ void barrier_then_divergent(float *a, int n) {
  __shared__ float s[256];
  for (int k = 0; k < n; ++k) {
    __syncthreads();
    if (threadIdx.x < 32)
      s[threadIdx.x] = a[k];
    else if (threadIdx.x % 3 == 0)
      a[threadIdx.x] = s[0];
  }
}

// Tiled matrix multiply: the tile count is n / TILE, n a kernel argument.
constexpr int TILE = 16;
__global__ void tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// Threads that return from the kernel have exited: a barrier waits for the
// non-exited threads only (PTX ISA "exit" and "bar"; Volta tuning guide
// 1.4.1.2).
__global__ void tail_guard(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x ^ 1];
}

// A helper's early return is not an exit, and all threads go on to the
// barrier after the call.
__device__ void store_unless_out(float *a, int i, int n) {
  if (i >= n)
    return;
  a[i] = 1;
}
__global__ void return_from_helper(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  store_unless_out(a, i, n);
  __shared__ float s[256];
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x ^ 1];
}

// The threads re-converge before the barrier.
__global__ void reconverged(float *a) {
  if (threadIdx.x % 2)
    a[threadIdx.x] *= 2;
  else
    a[threadIdx.x] += 1;
  __syncthreads();
}

// Conditions the whole block agrees on: blockIdx, blockDim, kernel
// parameters, a __shared__ flag written before a barrier.
__global__ void uniform_conditions(float *a, int mode, bool enabled) {
  __shared__ int flag;
  if (blockIdx.x == 0)
    __syncthreads();
  if (blockDim.x > 64 && mode == 2)
    __syncthreads();
  if (enabled)
    __syncthreads();
  if (threadIdx.x == 0)
    flag = a[0] > 0;
  __syncthreads();
  if (flag)
    __syncthreads();
  __syncthreads_or(a[threadIdx.x] > 0) ? __syncthreads() : (void)0;
}

// Warp-specialised work, then a barrier outside the branches.
__global__ void warp_roles(float *a) {
  int warp = threadIdx.x / 32;
  if (warp == 0)
    a[threadIdx.x] = 1;
  else if (warp == 1)
    a[threadIdx.x] = 2;
  __syncthreads();
}

// Helpers called from uniform control, and a helper whose parameter is
// uniform at its only call site.
__device__ void sync_helper() { __syncthreads(); }
__device__ void maybe_sync(int rounds) {
  for (int r = 0; r < rounds; ++r)
    sync_helper();
}
__global__ void helpers(float *a, int rounds) {
  sync_helper();
  maybe_sync(rounds);
  cg::this_thread_block().sync();
}

// A failed check traps: the threads that take it do not skip the barrier,
// they end the grid.
__global__ void guarded(float *a, int n) {
  if (threadIdx.x >= blockDim.x)
    __trap();
  __syncthreads();
}

// Named barriers with a thread count synchronise part of the block on purpose.
__global__ void producer_consumer(float *a) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
}

// CHECK-NOT: error

// A switch whose default cannot happen (CCCL's memcpy_async dispatch:
// `default: _CCCL_UNREACHABLE();`) on a thread-dependent value: the
// barrier after it is reached by every thread (cuda-samples'
// tf32TensorCoreGemm).
__device__ int alignment_mode(const float *p) {
  return ((unsigned long long)p & 15) ? 1 : 0;
}
__global__ void switch_with_unreachable_default(float *a) {
  __shared__ float s[256];
  for (int t = 0; t < 4; ++t) {
    switch (alignment_mode(a + threadIdx.x)) {
    case 0:
      s[threadIdx.x] = 1.0f;
      break;
    case 1:
      s[threadIdx.x] = 2.0f;
      break;
    default:
      __builtin_unreachable();
    }
    __syncthreads();
    a[threadIdx.x] += s[threadIdx.x ^ 1];
  }
}

// A kernel's return after some stores is still the threads' exit (llm.c's
// softmax_forward_kernel7): the AST layer judges it so, and so does this one.
__global__ void stores_then_return(float *out, const float *in, int C) {
  extern __shared__ float maxvals[];
  int warp = threadIdx.x / 32;
  if (threadIdx.x >= C) {
    maxvals[warp] = -__builtin_inff();
    return;
  }
  if (threadIdx.x % 32 == 0)
    maxvals[warp] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = maxvals[0];
}

// A grid-stride loop that ends the kernel: in the tail block's last
// iteration the threads past n leave it and exit (cuCollections' bulk find),
// as the AST layer judges it.
__global__ void loop_ends_kernel(const int *keys, long n, int *out) {
  __shared__ int buffer[128];
  long idx = 128L * blockIdx.x + threadIdx.x;
  while (idx < n) {
    buffer[threadIdx.x] = keys[idx] * 2;
    __syncthreads();
    out[idx] = buffer[threadIdx.x];
    idx += 128L * gridDim.x;
  }
}

// A struct that keeps a block-uniform flag beside fields indexed at run time
// (CUB's AgentHistogram: `prefer_smem = blockIdx.x & 1`): the object stays in
// private memory, and every thread stores the same flag.
struct Agent {
  int *smem;
  int *gmem[4];
  bool prefer_smem;
  __device__ Agent(int *s, int *g) : smem(s), prefer_smem(blockIdx.x & 1) {
    for (int c = 0; c < 4; ++c)
      gmem[c] = g + c * gridDim.x * 256 + blockIdx.x * 256;
  }
  __device__ void initSmem() {
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
      smem[i] = 0;
    __syncthreads();
  }
  __device__ void initGmem() {
    for (int c = 0; c < 4; ++c)
      for (int i = threadIdx.x; i < 256; i += blockDim.x)
        gmem[c][i] = 0;
  }
  __device__ void init() {
    if (prefer_smem)
      initSmem();
    else
      initGmem();
  }
};
__global__ void agent_flag(int *g) {
  __shared__ int s[256];
  Agent a(s, g);
  a.init();
  g[threadIdx.x] += s[threadIdx.x];
}
