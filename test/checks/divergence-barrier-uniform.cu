// Uniformity by value: conditions whose value is the same in every thread of
// the block although they are computed from the thread index.
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 -fgpu-rdc | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- negatives: the grid-stride loop made block-uniform by cancelling the
// thread index (the fix of the tail-block barrier bug)

__global__ void stride_cancelled(float *a, int n) {
  __shared__ float s[256];
  int stride = gridDim.x * blockDim.x;
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx - threadIdx.x < n;
       idx += stride) {
    s[threadIdx.x] = idx < n ? a[idx] : 0.0f;
    __syncthreads();
    if (idx < n)
      a[idx] = s[255 - threadIdx.x];
    __syncthreads();
  }
}

__global__ void stride_cancelled_rank(float *a, int n) {
  auto block = cg::this_thread_block();
  __shared__ float s[256];
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned idx = blockIdx.x * blockDim.x + block.thread_rank();
       idx - block.thread_rank() < n; idx += stride) {
    s[block.thread_rank()] = idx < n ? a[idx] : 0.0f;
    block.sync();
  }
}

// One index per group of CG threads (a hash table's probing group).
template <int CG> __global__ void stride_per_group(int *a, int n) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<CG>(block);
  int const thread_idx = blockIdx.x * blockDim.x + threadIdx.x;
  int const loop_stride = gridDim.x * blockDim.x / CG;
  int idx = thread_idx / CG;
  while ((idx - threadIdx.x / CG) < n) {
    if (idx < n)
      a[idx] += tile.thread_rank();
    block.sync();
    idx += loop_stride;
  }
}
template __global__ void stride_per_group<4>(int *, int);

// A block-wide vote is the same in every thread.
__global__ void vote_loop(const int *a, int *out) {
  int running = a[threadIdx.x] > 0;
  int i = 0;
  while (__syncthreads_or(running)) {
    running = a[++i * blockDim.x + threadIdx.x] > 0;
  }
  int count = __syncthreads_count(a[threadIdx.x] > 0);
  if (count > 3)
    __syncthreads();
  out[threadIdx.x] = count;
}

// A __shared__ value written by one thread and read after a barrier.
__global__ void shared_count(const int *a, int *out) {
  __shared__ int trips;
  if (threadIdx.x == 0)
    trips = a[blockIdx.x];
  __syncthreads();
  for (int t = 0; t < trips; ++t) {
    out[t * blockDim.x + threadIdx.x] = t;
    __syncthreads();
  }
}

// A do-while whose condition reads a local the body's last definition set
// from a __shared__ value every thread reads after a barrier (FlashInfer's
// top-p sampling rounds): the same in every thread.
__global__ void shared_round(const float *p, int d, float *out) {
  __shared__ float s_max;
  float hi = 1.0f, m;
  do {
    m = 0.0f;
    for (int i = threadIdx.x; i < d; i += blockDim.x)
      m = fmaxf(m, p[i] < hi ? p[i] : 0.0f);
    if (threadIdx.x == 0)
      s_max = 0.0f;
    __syncthreads();
    atomicMax((int *)&s_max, __float_as_int(m));
    __syncthreads();
    m = s_max;
    hi = m;
    __syncthreads();
  } while (m > 0.5f);
  if (threadIdx.x == 0)
    *out = hi;
}

// ---- positives: the look-alikes that do not cancel

// The same rounds, the last definition in the body adding the thread's own
// value.
__global__ void shared_round_own(const float *p, float *out) {
  __shared__ float s_max;
  float m;
  do {
    if (threadIdx.x == 0)
      s_max = p[blockIdx.x];
    __syncthreads();
    m = s_max;
    m += p[threadIdx.x];
    __syncthreads();
  } while (m > 0.5f);
  // CHECK: :[[@LINE-5]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'm > 0.5f' depends on the thread)
  // CHECK: :[[@LINE-2]]:12: note: the loop condition that varies between threads
  // CHECK: :[[@LINE-4]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'm > 0.5f' depends on the thread)
  // CHECK: :[[@LINE-4]]:12: note: the loop condition that varies between threads
  out[threadIdx.x] = m;
}

// The loop ends the kernel: in the tail block's last iteration the threads
// past n leave it and exit, and the survivor next to them reads the slot an
// exited thread did not write (bench/gpu: stride_plain).
__global__ void stride_plain(float *a, int n) {
  __shared__ float s[256];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = a[idx];
    __syncthreads();
    a[idx] = s[threadIdx.x ^ 1];
    // CHECK: :[[@LINE-2]]:5: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads s[1], which only thread 1 writes, and that thread has exited when only 1 of the 256 threads pass the tail guard: the value read is stale (assuming blocks of 256 threads: the launch is not known) [divergence-barrier]
    // CHECK: :[[@LINE-6]]:3: note: threads that leave this loop exit, as nothing follows it in the kernel; an exited thread releases the barrier (PTX ISA, 'exit') but writes and reads nothing after it
    // CHECK: :[[@LINE-3]]:14: note: the read of a slot only exited threads write
    __syncthreads();
  }
}

// The same loop with work after it: the threads that leave it early are
// still running.
__global__ void stride_plain_then_more(float *a, int n) {
  __shared__ float s[256];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = a[idx];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'idx < n' depends on the thread)
    // CHECK: :[[@LINE-5]]:57: note: the loop condition that varies between threads
  }
  a[blockIdx.x] = s[0];
}

// threadIdx.y does not cancel threadIdx.x.
__global__ void stride_wrong_axis(float *a, int n) {
  __shared__ float s[256];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx - threadIdx.y < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = a[idx];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'idx - threadIdx.y < n' depends on the thread)
    // CHECK: :[[@LINE-5]]:57: note: the loop condition that varies between threads
  }
}

// A step that only some threads take breaks the cancellation.
__global__ void stride_divergent_step(float *a, int n) {
  __shared__ float s[256];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx - threadIdx.x < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = a[idx];
    if (threadIdx.x % 2)
      idx += 1;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'idx - threadIdx.x < n' depends on the thread)
    // CHECK: :[[@LINE-7]]:57: note: the loop condition that varies between threads
  }
}

// The group index divided by another group size does not cancel.
template <int CG> __global__ void stride_other_group(int *a, int n) {
  auto block = cg::this_thread_block();
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) / CG;
  while ((idx - threadIdx.x / (2 * CG)) < n) {
    block.sync();
    // CHECK: :[[@LINE-1]]:5: error: 'block.sync()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition '(idx - threadIdx.x / (2 * CG)) < n' depends on the thread)
    // CHECK: :[[@LINE-3]]:10: note: the loop condition that varies between threads
    idx += gridDim.x * blockDim.x / CG;
  }
}
template __global__ void stride_other_group<4>(int *, int);

// ---- a block-stride loop whose bound is the launched blockDim.x: each
// thread runs the same number of iterations (one)

constexpr int SUM_N = 256;
__global__ void block_stride_launched(float *a) {
  __shared__ float s[SUM_N];
  for (int pos = threadIdx.x; pos < SUM_N; pos += blockDim.x) {
    s[pos] = a[pos];
    __syncthreads();
    a[pos] = s[SUM_N - 1 - pos];
  }
}

// The same loop launched with another block size: threads 0-55 of 200 run it
// twice, and the others run on after it (with nothing after the loop, they
// would exit: the early-exit rule).
__global__ void block_stride_other(float *a) {
  __shared__ float s[SUM_N];
  for (int pos = threadIdx.x; pos < SUM_N; pos += blockDim.x) {
    s[pos] = a[pos];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'pos < SUM_N' depends on the thread)
    // CHECK: :[[@LINE-4]]:31: note: the loop condition that varies between threads
  }
  a[SUM_N + threadIdx.x] = s[0]; // the threads that left are still running
}

// Not launched in this file: the block size is not known.
__global__ void block_stride_unknown(float *a) {
  __shared__ float s[SUM_N];
  for (int pos = threadIdx.x; pos < SUM_N; pos += blockDim.x) {
    s[pos] = a[pos];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'pos < SUM_N' depends on the thread)
    // CHECK: :[[@LINE-4]]:31: note: the loop condition that varies between threads
  }
  a[SUM_N + threadIdx.x] = s[0]; // the threads that left are still running
}

// A template helper whose stride is a constant: 256 threads launched, the
// bound and the stride 256: one iteration each. The kernel is static, so
// that with -fgpu-rdc its device name carries the TU's suffix.
template <int N, int Stride> __device__ void sum_reduce(float *s) {
  for (int pos = threadIdx.x; pos < N; pos += Stride) {
    __syncthreads();
    if (pos < 128)
      s[pos] += s[pos + 128];
    __syncthreads();
  }
}
static __global__ void stride_constant(float *a) {
  __shared__ float s[SUM_N];
  s[threadIdx.x] = a[threadIdx.x];
  sum_reduce<SUM_N, SUM_N>(s);
  a[blockIdx.x] = s[0];
}

// A constant stride below the block size: threads 0-127 of 256 run the
// loop twice, the others once.
template <int N, int Stride> __device__ void sum_reduce_half(float *s) {
  for (int pos = threadIdx.x; pos < N; pos += Stride) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'pos < N' depends on the thread)
    // CHECK: :[[@LINE-3]]:31: note: the loop condition that varies between threads
    s[pos] += 1.0f;
  }
}
static __global__ void stride_below_block(float *a) {
  __shared__ float s[SUM_N];
  s[threadIdx.x] = a[threadIdx.x];
  sum_reduce_half<SUM_N, 128>(s);
  a[blockIdx.x] = s[0];
}

// ---- a loop whose only exit is a block-wide vote through shared memory:
// each warp's vote goes to buf[warp]; after a barrier every warp votes
// again over the same 32 slots (buf[tid % 32]), so every thread of the
// block gets the same answer (ggml's KV-mask scan)

__global__ void vote_through_shared(const float *mask, int *out, int n) {
  __shared__ int buf[32];
  const int tid = threadIdx.x;
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - 128;
  for (; j >= 0; j -= 128) {
    int all_inf = __all_sync(0xffffffff, isinf(mask[j + tid]));
    if (tid % 32 == 0)
      buf[tid / 32] = all_inf;
    __syncthreads();
    all_inf = buf[tid % 32];
    __syncthreads();
    all_inf = __all_sync(0xffffffff, all_inf);
    if (!all_inf)
      break;
  }
  if (tid == 0)
    out[blockIdx.x] = j + 128;
}

// The same through a helper that reduces over the warp, with a butterfly
// for sub-warp widths.
template <int width = 32> __device__ int warp_all(int x) {
  if (width == 32)
    return __all_sync(0xffffffff, x);
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
  return x;
}
__global__ void vote_through_helper(const float *mask, int *out, int n) {
  __shared__ int buf[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - 128;
  for (; j >= 0; j -= 128) {
    int all_inf = warp_all(isinf(mask[j + tid]));
    if (lane == 0)
      buf[tid / 32] = all_inf;
    __syncthreads();
    all_inf = warp_all(buf[lane]);
    __syncthreads();
    if (!all_inf)
      break;
  }
  if (tid == 0)
    out[blockIdx.x] = j + 128;
}

// The same in a kernel template this file never instantiates, through a
// helper template used nowhere else: the helper's specialization has no
// body here, and its pattern is read with width = 32.
template <int width = 32> __device__ int warp_all_pattern(int x) {
  if (width == 32)
    return __all_sync(0xffffffff, x);
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
  return x;
}
template <int Cols>
__global__ void vote_in_template(const float *mask, int *out, int n) {
  __shared__ int buf[32];
  const int tid = threadIdx.x;
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - 128;
  for (; j >= 0; j -= 128) {
    int all_inf = 1;
    for (int c = 0; c < Cols; ++c)
      all_inf = all_inf && isinf(mask[c * n + j + tid]);
    all_inf = warp_all_pattern(all_inf);
    if (tid % 32 == 0)
      buf[tid / 32] = all_inf;
    __syncthreads();
    all_inf = buf[tid % 32];
    __syncthreads();
    all_inf = warp_all_pattern(all_inf);
    if (!all_inf)
      break;
  }
  if (tid == 0)
    out[blockIdx.x] = j + 128;
}

// A warp's own vote: the warps leave the loop at different iterations.
__global__ void vote_per_warp(const float *mask, int *out, int n) {
  __shared__ float s[128];
  int j = n - 128;
  for (; j >= 0; j -= 128) {
    s[threadIdx.x] = mask[j + threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'j >= 0' differs between warps)
    // CHECK: :[[@LINE-4]]:10: note: the loop condition that varies between threads
    if (!__all_sync(0xffffffff, isinf(s[threadIdx.x ^ 1])))
      break;
  }
  out[blockIdx.x * 128 + threadIdx.x] = j;
}

// ---- a work queue: the only exit is a break on a __shared__ flag that
// thread 0 sets before a barrier

__device__ int queue_head;
__global__ void work_queue(const float *in, float *out, int items) {
  __shared__ int item;
  __shared__ bool done;
  __shared__ float s[256];
  while (1) {
    if (threadIdx.x == 0) {
      item = atomicAdd(&queue_head, 1);
      done = item >= items;
    }
    __syncthreads();
    if (done)
      break;
    s[threadIdx.x] = in[item * 256 + threadIdx.x];
    __syncthreads();
    out[item * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
  }
}

// ---- a device-side launch is not a call: the child's barrier belongs to
// the child's own blocks

__global__ void child(float *a) {
  __shared__ float s[32];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[31 - threadIdx.x];
}
__global__ void parent_launch(float *a) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(a);
  __syncthreads();
  a[threadIdx.x] += 1.0f;
}

// ---- the same thread part on both sides of the loop's test (ggml's wkv
// and gla kernels: one token of the sequence per iteration, each thread its
// channel): every thread runs (end - start) / C iterations.

__global__ void both_sides(const float *k, float *y, int n, int H, int C) {
  __shared__ float s[64];
  int tid = threadIdx.x, b = blockIdx.x / H, h = blockIdx.x % H;
  for (int t = b * n * C + h * 64 + tid; t < (b + 1) * n * C + h * 64 + tid;
       t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    y[t] = s[63 - tid];
  }
}
// Positive beside it: the thread parts differ (tid against 2 * tid).
__global__ void sides_differ(const float *k, float *y, int n, int C) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  for (int t = tid; t < n + 2 * tid; t += C) {
    s[tid] = k[t];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 't < n + 2 * tid' depends on the thread)
    // CHECK: :[[@LINE-4]]:21: note: the loop condition that varies between threads
    y[t] = s[63 - tid];
  }
}

// ---- a grid barrier: the block index is not uniform across the grid

__global__ void grid_sync_even_blocks(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 0)
    grid.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'grid.sync()' is reached by only some blocks of the grid: it is under the condition 'blockIdx.x % 2 == 0', which differs between blocks; a grid barrier waits for every thread of every block of the grid, and the blocks that wait never see the others arrive (the grid hangs) [divergence-barrier]
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the blocks of the grid
  a[blockIdx.x] = 1.0f;
}

// A block-uniform condition that is the same in every block.
__global__ void grid_sync_all_blocks(float *a, int rounds) {
  cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
      a[r] = 0.0f;
    grid.sync();
  }
}

// A loop whose trip count differs between blocks: the blocks that finish
// first stop arriving at the grid barrier.
__global__ void grid_sync_block_stride(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    a[i] += 1.0f;
    grid.sync();
    // CHECK: :[[@LINE-1]]:5: error: 'grid.sync()' is reached by only some blocks of the grid: it is under the condition 'i < n', which differs between blocks
    // CHECK: :[[@LINE-4]]:28: note: this condition splits the blocks of the grid
  }
}

// The block's rank (a static member of grid_group), and a grid barrier as
// the kernel's last statement: the blocks that skip it exit, and a grid
// barrier waits for them all the same.
__global__ void grid_sync_rank(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == 0)
    grid.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'grid.sync()' is reached by only some blocks of the grid: it is under the condition 'grid.block_rank() == 0'
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the blocks of the grid
  a[blockIdx.x] = 1.0f;
}
__global__ void grid_sync_first_block_last(float *a) {
  cg::grid_group grid = cg::this_grid();
  a[blockIdx.x] = 1.0f;
  if (blockIdx.x == 0)
    grid.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'grid.sync()' is reached by only some blocks of the grid: it is under the condition 'blockIdx.x == 0'
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the blocks of the grid
}

// Negative: a condition on a kernel argument is the same in every block.
__global__ void grid_sync_argument(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  if (n > 0)
    grid.sync();
  a[blockIdx.x] = 1.0f;
}

// A grid-stride loop over a template iterator that ends the kernel. With
// operators in scope (cooperative groups declares some), `first + tid <
// last` in the template as written is an operator call left unresolved: it
// is judged as the built-in comparison it stands for, a tail guard.
template <typename It>
__global__ void iterator_tail(It first, It last, float *out) {
  __shared__ float s[256];
  auto tid = blockDim.x * blockIdx.x + threadIdx.x;
  while (first + tid < last) {
    s[threadIdx.x] = *(first + tid);
    __syncthreads();
    out[tid] = s[threadIdx.x];
    tid += gridDim.x * blockDim.x;
  }
}
// Positive: the same loop with work after it, so the threads that leave it
// early are still running.
template <typename It>
__global__ void iterator_tail_then_work(It first, It last, float *out) {
  __shared__ float s[256];
  auto tid = blockDim.x * blockIdx.x + threadIdx.x;
  while (first + tid < last) {
    s[threadIdx.x] = *(first + tid);
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'first + tid < last' depends on the thread)
    // CHECK: :[[@LINE-4]]:10: note: the loop condition that varies between threads
    out[tid] = s[threadIdx.x];
    tid += gridDim.x * blockDim.x;
  }
  out[blockIdx.x] = 0.0f;
}

// Positive: `k += 1` on a local of a template type is an operator call left
// unresolved, and still a definition under a thread-dependent condition.
template <typename Size>
__global__ void dependent_step(float *a, Size n) {
  Size k = 0;
  if (threadIdx.x < n)
    k += 1;
  if (k > 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'k > 0', which depends on the thread
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = 1.0f;
}

// The cancelled grid-stride loop, with the index stepped again after it
// under a thread-dependent condition (cuCollections' insert_or_apply
// kernel): a definition after the loop never reaches its condition.
__global__ void stride_cancelled_then_rest(float *a, int n) {
  __shared__ float s[256];
  int stride = gridDim.x * blockDim.x;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  while (idx - threadIdx.x < n) {
    s[threadIdx.x] = idx < n ? a[idx] : 0.0f;
    __syncthreads();
    if (idx < n)
      a[idx] = s[255 - threadIdx.x];
    __syncthreads();
    idx += stride;
  }
  if (a[threadIdx.x] > 0.0f) {
    idx += stride;
    while (idx < n) {
      a[idx] = 0.0f;
      idx += stride;
    }
  }
}
// Positive: a step inside the loop, after the barrier, reaches the next
// test of the condition.
__global__ void stride_cancelled_data_step(float *a, int n) {
  __shared__ float s[256];
  int stride = gridDim.x * blockDim.x;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  while (idx - threadIdx.x < n) {
    s[threadIdx.x] = idx < n ? a[idx] : 0.0f;
    __syncthreads();
    // The step depends on data read in an earlier round: no two threads
    // are named, so it is a warning that says so.
    // CHECK: :[[@LINE-3]]:5: warning: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'idx - threadIdx.x < n' depends on the thread){{.*}}; no witness: warplint found no two threads of a launch that part here
    // CHECK: :[[@LINE-6]]:10: note: the loop condition that varies between threads
    if (idx < n && a[idx] > 0.0f)
      idx += 1;
    idx += stride;
  }
  a[0] = 0.0f;
}

void launch_templates(const float *f, const float *l, float *out, int n) {
  iterator_tail<<<n, 256>>>(f, l, out);
  iterator_tail_then_work<<<n, 256>>>(f, l, out);
  dependent_step<<<n, 256>>>(out, n);
}

// ---- a branch whose condition the launch shape makes the same in every
// thread: each thread of the launched block evaluated

// 256 threads launched: every thread passes `threadIdx.x < 256`.
__global__ void bound_is_block(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 256) {
    __syncthreads();
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
  a[256 + threadIdx.x] = 0.0f;
}

// dim3(32, 4): every thread has threadIdx.y < 4 (the row kept in a local
// assigned after its declaration), and threadIdx.x / 32 is 0 in all of them.
__global__ void rows_of_block(float *a) {
  __shared__ float s[128];
  unsigned row;
  row = threadIdx.y;
  s[threadIdx.x + 32 * row] = a[threadIdx.x];
  if (row < 4 && threadIdx.x / 32 == 0) {
    __syncthreads();
    a[threadIdx.x] = s[127 - threadIdx.x - 32 * row];
  }
  a[128 + threadIdx.x] = 0.0f;
}

// A template whose bound is its block size, launched with that many threads
// at each instantiation.
template <int Block> __global__ void bound_per_instance(float *a) {
  __shared__ float s[Block];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < Block) {
    __syncthreads();
    a[threadIdx.x] = s[Block - 1 - threadIdx.x];
  }
  a[Block + threadIdx.x] = 0.0f;
}

// The same bound launched with more threads: threads 128-255 skip the
// barrier and run on.
__global__ void bound_below_block(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 128) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 128', which depends on the thread
    // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
  a[256 + threadIdx.x] = 0.0f;
}

// A template whose second instantiation launches twice its bound.
template <int Block> __global__ void bound_one_instance_short(float *a) {
  __shared__ float s[2 * Block];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < Block) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < Block', which depends on the thread
    // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
    a[threadIdx.x] = s[Block - 1 - threadIdx.x];
  }
  a[Block + threadIdx.x] = 0.0f;
}

void host_shapes(float *a, int n) {
  bound_is_block<<<n, 256>>>(a);
  rows_of_block<<<n, dim3(32, 4)>>>(a);
  bound_per_instance<128><<<n, 128>>>(a);
  bound_per_instance<256><<<n, 256>>>(a);
  bound_below_block<<<n, 256>>>(a);
  bound_one_instance_short<64><<<n, 64>>>(a);
  bound_one_instance_short<128><<<n, 256>>>(a);
}

void host(float *a, int n) {
  block_stride_launched<<<n, SUM_N>>>(a);
  block_stride_other<<<n, 200>>>(a);
  stride_constant<<<n, SUM_N>>>(a);
  stride_below_block<<<n, SUM_N>>>(a);
}

// ---- Loops padded to the block: every thread runs the same rounds.

// The bound rounded up to a multiple of blockDim.x, the counter stepping by
// it: `seq < padded` holds exactly while the round does not pass padded /
// blockDim.x, in every thread (0 <= threadIdx.x < blockDim.x).
__global__ void padded_to_block(const int *in, int *out, unsigned n) {
  __shared__ int partial[1024];
  const int padded = blockDim.x * ((n + blockDim.x - 1) / blockDim.x);
  for (int seq = threadIdx.x; seq < padded; seq += blockDim.x) {
    bool masked = seq >= n;
    partial[threadIdx.x] = masked ? 0 : in[seq];
    __syncthreads();
    if (!masked)
      out[seq] = partial[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
  }
}

// The same look, padded to 128 while the block may be larger: threads 128
// and up of a 256-thread block run one round fewer.
__global__ void padded_to_constant(const int *in, int *out, unsigned n) {
  __shared__ int partial[1024];
  const int padded = 128 * ((n + 127) / 128);
  for (int seq = threadIdx.x; seq < padded; seq += blockDim.x) {
    partial[threadIdx.x] = in[seq];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'seq < padded' depends on the thread)
    // CHECK: :[[@LINE-4]]:31: note: the loop condition that varies between threads
    out[seq] = partial[blockDim.x - 1 - threadIdx.x];
  }
  out[n + threadIdx.x] = 0; // the threads that leave run on
}

// Padded to a template block size that is also the launch's block: the
// stride is the block, the bound a multiple of it.
template <int TB>
__global__ void padded_to_template_block(const int *in, int *out, int n,
                                         bool *found) {
  __shared__ bool match;
  const int padded = TB * ((n + TB - 1) / TB);
  for (int i = threadIdx.x; i < padded; i += TB) {
    if (threadIdx.x == 0)
      match = i < n && in[i] == 0;
    __syncthreads();
    if (match)
      break;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *found = match;
}

// Floor division by the block's size cancels the thread index: `(pos /
// size) * size` is the round's first index in every thread, and `depth` is
// read at one __shared__ address after a barrier.
__global__ void floor_division_round(const int *in, int *out, int n) {
  __shared__ int depth;
  __shared__ int counter;
  const int size = blockDim.x;
  int pos = threadIdx.x;
  if (threadIdx.x == 0)
    counter = 0;
  __syncthreads();
  while (true) {
    if (pos < n && in[pos] > 0)
      atomicAdd(&counter, 1);
    pos += size;
    __syncthreads();
    depth = counter;
    __syncthreads();
    if ((depth < size) && (((pos / size) * size) < n))
      continue;
    if (threadIdx.x == 0)
      out[blockIdx.x] = depth;
    __syncthreads();
    break;
  }
}

// The same look without the multiplication back: `pos / 32` differs between
// the warps of the block.
__global__ void floor_division_warp(const int *in, int *out, int n) {
  int pos = threadIdx.x;
  __shared__ int s[1024];
  while (pos / 32 < n) {
    s[threadIdx.x] = in[pos];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'pos / 32 < n' depends on the thread)
    // CHECK: :[[@LINE-4]]:10: note: the loop condition that varies between threads
    out[pos] = s[blockDim.x - 1 - threadIdx.x];
    pos += blockDim.x;
  }
  out[n + threadIdx.x] = 0; // the threads that leave run on
}

// The same, launched with a dim3 the host code sets just before each launch.
template <int TB>
__global__ void padded_block_assigned(const int *in, int *out, int n) {
  __shared__ int s[TB];
  const int padded = TB * ((n + TB - 1) / TB);
  for (int i = threadIdx.x; i < padded; i += TB) {
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n)
      out[i] = s[TB - 1 - threadIdx.x];
    __syncthreads();
  }
  out[n + threadIdx.x] = 0;
}

void host_padded(const int *in, int *out, int n, bool *found) {
  padded_to_template_block<128><<<n, 128>>>(in, out, n, found);
  padded_to_template_block<256><<<n, 256>>>(in, out, n, found);
  dim3 block{512};
  if (n <= 128) {
    block = 128;
    padded_block_assigned<128><<<n, block>>>(in, out, n);
  } else {
    block = 256;
    padded_block_assigned<256><<<n, block>>>(in, out, n);
  }
}

// A bound the kernel takes as a parameter, the same multiple of the block at
// every launch in the file (cuSZ's histogram: 32768 with 256 threads).
__global__ void chunk_parameter(const int *in, int *hist, unsigned chunk) {
  __shared__ int s[256];
  s[threadIdx.x] = 0;
  for (unsigned i = threadIdx.x; i < chunk; i += blockDim.x) {
    atomicAdd(&s[in[blockIdx.x * chunk + i] & 255], 1);
    __syncthreads();
  }
  hist[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
}

// The same look, launched once with a chunk that is not a multiple: threads
// 232 and up of the last round do not arrive.
__global__ void chunk_parameter_short(const int *in, int *hist,
                                      unsigned chunk) {
  __shared__ int s[256];
  s[threadIdx.x] = 0;
  for (unsigned i = threadIdx.x; i < chunk; i += blockDim.x) {
    atomicAdd(&s[in[blockIdx.x * chunk + i] & 255], 1);
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'i < chunk' depends on the thread)
    // CHECK: :[[@LINE-4]]:34: note: the loop condition that varies between threads
  }
  hist[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
}

void host_chunks(const int *in, int *hist, int n) {
  constexpr unsigned chunk = 32768;
  chunk_parameter<<<n, 256>>>(in, hist, chunk);
  chunk_parameter_short<<<n, 256>>>(in, hist, 1000);
}
