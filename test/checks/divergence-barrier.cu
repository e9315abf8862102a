// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: not %warplint --format=json --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- positives

__global__ void divergent_if(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 100)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 100', which depends on the thread; every non-exited thread of the block must reach the same barrier (Volta tuning guide 1.4.1.2): undefined behaviour on sm_80 (independent thread scheduling); witness: thread 0 reaches it and thread 100 does not ('threadIdx.x < 100' is true in thread 0 and false in thread 100), in any 1-D block of 101 threads or more (the launch is not in this file) [divergence-barrier]
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  // PASCAL: :[[@LINE-3]]:5: error: '__syncthreads()' {{.*}}: on sm_60 the block deadlocks or reads shared memory too early; witness: {{.*}} [divergence-barrier]
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// A value loaded through a thread-dependent address differs per thread.
__global__ void loaded_condition(const int *flags, float *a) {
  if (flags[threadIdx.x]) {
    a[threadIdx.x] = 0.0f;
    __syncthreads_or(1);
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads_or()' is reached by only part of the thread block: it is under the condition 'flags[threadIdx.x]', which depends on the thread
    // CHECK: :[[@LINE-4]]:7: note: this condition splits the threads of the block
  }
  a[threadIdx.x] += 1.0f; // the threads that skipped the barrier run on
}

// A warp id lets whole warps through, not the whole block.
__global__ void warp_branch(float *a) {
  int warp = threadIdx.x / 32;
  if (warp == 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'warp == 0', which differs between the warps of the block
  // CHECK: :[[@LINE-3]]:7: note: this condition lets only some warps through
  a[threadIdx.x] = 0;
}

__global__ void thread_trip_count(float *a) {
  __shared__ float s[256];
  for (int k = 0; k < (int)(threadIdx.x % 4); ++k) {
    s[threadIdx.x] = a[threadIdx.x] + k;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'k < (int)(threadIdx.x % 4)' depends on the thread), so threads arrive at it a different number of times
    // CHECK: :[[@LINE-4]]:19: note: the loop condition that varies between threads
  }
}

__global__ void skip_iteration(float *a, int n) {
  for (int t = 0; t < n; ++t) {
    if (threadIdx.x > t)
      continue;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: some threads leave or skip iterations of the loop around it (a 'continue' under a thread-dependent condition)
    // CHECK: :[[@LINE-3]]:7: note: threads that take this 'continue' miss the barrier
  }
}

// A __device__ function's return does not end the thread.
__device__ void load_then_sync(const float *a, float *s) {
  if (threadIdx.x >= 100)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' is reached by only part of the thread block: threads that return early from load_then_sync() do not reach it: they go back to the caller and run on, they have not exited
  // CHECK: :[[@LINE-4]]:5: note: threads that take this return skip the barrier
}

// Through two levels of helpers: the finding is on the barrier, the call
// sites are notes.
__device__ void sync_helper() { __syncthreads(); }
// CHECK: :[[@LINE-1]]:33: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x % 2', which depends on the thread
__device__ void mid(int x) { sync_helper(); }
__global__ void via_helpers(float *a) {
  if (threadIdx.x % 2)
    mid(1);
  // CHECK: :[[@LINE-2]]:7: note: this condition splits the threads of the block
  // CHECK: :[[@LINE-5]]:30: note: 'sync_helper' is called here
  // CHECK: :[[@LINE-3]]:5: note: 'mid' is called here
  a[threadIdx.x] = 0;
}

// A helper whose loop runs as often as its argument says.
__device__ void sync_n_times(int n) {
  for (int i = 0; i < n; ++i)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'i < n' depends on the thread)
  // CHECK: :[[@LINE-3]]:19: note: the loop condition that varies between threads
  // CHECK: :[[@LINE+4]]:3: note: 'sync_n_times' is called here with a thread-dependent argument
}
__global__ void via_arguments(float *a, int n) {
  sync_n_times(n); // fine: n is the same for the whole block
  sync_n_times(threadIdx.x % 3);
}

__global__ void cooperative(float *a) {
  cg::thread_block b = cg::this_thread_block();
  if (b.thread_rank() < 10)
    b.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'b.sync()' is reached by only part of the thread block: it is under the condition 'b.thread_rank() < 10'
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  if (threadIdx.x & 1)
    cg::sync(b);
  // CHECK: :[[@LINE-1]]:5: error: 'cooperative_groups::sync()' is reached by only part of the thread block: it is under the condition 'threadIdx.x & 1'
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = 0;
}

__global__ void inline_asm(float *a) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 0;");
  // CHECK: :[[@LINE-1]]:5: error: 'asm bar.sync' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 64'
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;"); // fine: a named barrier for 64 threads
}

__global__ void switch_on_thread(float *a) {
  switch (threadIdx.x % 4) {
  case 0:
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x % 4'
    // CHECK: :[[@LINE-4]]:11: note: this condition splits the threads of the block
    break;
  default:
    break;
  }
}

// The last `if`, but the other arm still runs while the barrier waits, or
// meets a barrier of its own.
__global__ void tail_if_else_work(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'i < n'
    // CHECK: :[[@LINE-4]]:7: note: this condition splits the threads of the block
    a[i] = s[threadIdx.x ^ 1];
  } else {
    a[i] = 0.0f;
  }
}
__global__ void tail_if_two_barriers(float *a) {
  if (threadIdx.x % 2) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x % 2'
    // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  } else {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x % 2'
    // CHECK: :[[@LINE-7]]:7: note: this condition splits the threads of the block
  }
}

// A loop with a thread-dependent trip count and work after it: the threads
// that leave it early are still running while the others meet the barrier
// again.
__global__ void trip_count_then_more(float *a, int n) {
  for (int i = threadIdx.x; i < n; i += 32) {
    a[i] += 1.0f;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'i < n' depends on the thread)
    // CHECK: :[[@LINE-4]]:29: note: the loop condition that varies between threads
  }
  a[threadIdx.x] *= 2.0f;
}

// A grid-stride loop in tail position inside an `if`: the exit rule judges
// only the loop at the top of the kernel's body, so this one stays a barrier
// error rather than going unjudged (the last survivor reads a neighbour's
// slot).
__global__ void loop_ends_inside_if(const int *in, long n, int *out, int m) {
  __shared__ int buf[129];
  long idx = 128L * blockIdx.x + threadIdx.x;
  if (blockIdx.x < m) {
    while (idx < n) {
      buf[threadIdx.x] = in[idx];
      __syncthreads();
      // CHECK: :[[@LINE-1]]:7: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'idx < n' depends on the thread)
      // CHECK: :[[@LINE-4]]:12: note: the loop condition that varies between threads
      out[idx] = buf[threadIdx.x + 1];
      idx += 128L * gridDim.x;
    }
  }
}

// ---- negatives: the look-alike idioms that are fine

// Threads that return from a kernel have exited; the barrier waits only for
// the others (Volta tuning guide 1.4.1.2: "all non-exited threads").
__global__ void tail_guard_return(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x] * s[0]; // slots survivors wrote: thread 0 survives
}

// The classic tree reduction: the barrier is outside 'if (tid < s)'.
__global__ void tree_reduction(float *a) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = a[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    a[blockIdx.x] = s[0];
}

// A tiled loop: the trip count is the same for the whole block.
__global__ void tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / 16; ++t) {
    ta[threadIdx.y][threadIdx.x] = A[row * n + t * 16 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// Block-uniform conditions: block index, kernel parameters, a __shared__
// flag written by one thread and read after a barrier.
__global__ void uniform_conditions(float *a, int mode) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = a[0] > 0;
  __syncthreads();
  if (flag)
    __syncthreads();
  if (blockIdx.x > 2 && mode == 1)
    __syncthreads();
  if (a[blockIdx.x] > 0.0f)
    __syncthreads();
}

// The barrier after a branch that has re-converged.
__global__ void after_branch(float *a) {
  __shared__ float s[256];
  if (threadIdx.x % 2)
    s[threadIdx.x] = a[threadIdx.x];
  else
    s[threadIdx.x] = 0.0f;
  __syncthreads();
  a[threadIdx.x] = s[threadIdx.x ^ 1];
}

// Work for one warp, then a barrier for all.
__global__ void warp_then_block(float *a) {
  __shared__ float s[32];
  if (threadIdx.x < 32)
    s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[threadIdx.x % 32];
}

// A helper with a barrier, called by the whole block.
__device__ void stage(float *s, const float *a) {
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
}
__global__ void calls_stage(float *a) {
  __shared__ float s[256];
  stage(s, a);
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// A helper's early return whose threads go back only to end the kernel: an
// exit in all but name (cuda-samples' cdpBitonicSort).
__device__ void guarded_stage(float *a, int n) {
  if (threadIdx.x >= n)
    return;
  a[threadIdx.x] = 0.0f;
  __syncthreads();
}
__global__ void stage_last(float *a, int n) {
  a[threadIdx.x] = 1.0f;
  guarded_stage(a, n);
}

// The kernel's last `if` (cuda-samples' imageDenoising): the threads that
// skip it have nothing left to run and exit, as after an early return; the
// PTX is the same, a branch to `ret`. So does an `else` that only returns.
__global__ void tail_if(float *a, int w, int h) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float s[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h) {
    s[threadIdx.y][threadIdx.x] = a[y * w + x];
    cg::sync(cta);
    if (threadIdx.x > 0)
      a[y * w + x] += s[threadIdx.y][threadIdx.x - 1];
  }
}
__global__ void tail_if_else_return(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 1.0f;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x] + 1.0f;
  } else {
    return;
  }
}

// A helper whose divergent barrier is the last thing its only caller does.
__device__ void sync_first_rows(float *s) {
  s[threadIdx.x] = 0;
  if (threadIdx.x < 128) {
    __syncthreads();
    s[threadIdx.x] += s[threadIdx.x + 1];
  }
}
__global__ void helper_ends_kernel(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  sync_first_rows(s);
}

// A thread-dependent break out of the loop that ends the kernel: the threads
// that take it exit.
__global__ void break_at_the_end(float *a, int n) {
  __shared__ float s[256];
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x >= k)
      break;
    s[threadIdx.x] = a[k];
    __syncthreads();
  }
}

// A break leaves only its own loop, or its switch (llm.c's attention
// kernels: the inner loop stops early, the barrier is in the outer one).
__global__ void inner_break(float *a, int n, int tiles) {
  __shared__ float s[256];
  for (int j = 0; j < tiles; ++j) {
    s[threadIdx.x] = a[j * 256 + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < 8; ++i) {
      if (i * 32 + (int)threadIdx.x >= n)
        break;
      a[i] += s[i];
    }
    switch (threadIdx.x % 2) {
    case 0:
      a[j] = 1.0f;
      break;
    default:
      break;
    }
    __syncthreads();
  }
}

// A barrier in a loop whose trip count comes from memory at a uniform
// address.
__global__ void loop_from_memory(const int *counts, float *a) {
  for (int i = 0; i < counts[blockIdx.x]; ++i)
    __syncthreads();
}

// A tile's sync under a condition that keeps whole tiles together
// (cuda-samples' dxtc: a thread_group of 16 threads, synchronised by the
// first 16 threads of the block).
__global__ void tile_sync(float *a) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 16);
  if (threadIdx.x < 16) {
    a[threadIdx.x] *= 2.0f;
    cg::sync(tile);
    tile.sync();
  }
}

// A loop counter declared once and reused: 'i' is assigned again under
// 'if (tx == 0)' after the loop (Rodinia srad_v1's reduce), but inside the
// first loop only its init and its step reach: the trip count is the same
// for the whole block.
__global__ void reused_counter(float *a, int n) {
  __shared__ float s[256];
  int tx = threadIdx.x;
  int i;
  s[tx] = a[tx];
  __syncthreads();
  for (i = 1; i < 256; i *= 2) {
    if (tx % (2 * i) == 0)
      s[tx] += s[tx + i];
    __syncthreads();
  }
  if (tx == 0) {
    for (i = 0; i < n; i++)
      s[0] += a[i];
    a[blockIdx.x] = s[0];
  }
}

// The same counter, but set from the thread inside the loop: still found.
__global__ void counter_set_in_loop(float *a) {
  int i;
  for (i = 0; i < 8; ++i) {
    if (threadIdx.x == 0)
      i += 2;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'i < 8' depends on the thread), so threads arrive at it a different number of times; every non-exited thread of the block must reach the same barrier (Volta tuning guide 1.4.1.2): undefined behaviour on sm_80 (independent thread scheduling); witness: {{.*}} [divergence-barrier]
    // CHECK: :[[@LINE-5]]:15: note: the loop condition that varies between threads
    // PASCAL: :[[@LINE-3]]:5: error: '__syncthreads()' {{.*}}: on sm_60 the block deadlocks or reads shared memory too early; witness: {{.*}} [divergence-barrier]
  }
  a[threadIdx.x] = 0.0f;
}

// Suppressed.
__global__ void suppressed(float *a) {
  if (threadIdx.x < 5)
    __syncthreads(); // NOLINT(divergence-barrier)
  a[threadIdx.x] = 0.0f;
}

// ---- witnesses: each error names two threads that part, or the inputs.

// A data-dependent exit from a loop: two threads read different elements.
__global__ void witness_data(const int *keys, float *a, int n) {
  __shared__ float s[256];
  for (int r = 0; r < n; ++r) {
    if (keys[threadIdx.x + r] < 0)
      break;
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: some threads leave or skip iterations of the loop around it (a 'break' under a thread-dependent condition){{.*}}; witness: threads 0 and 1 read 'keys[threadIdx.x + r]' at different addresses (elements 0 and 1): one reaches it and the other does not for inputs where the two values make 'keys[threadIdx.x + r] < 0' differ [divergence-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads that take this 'break' miss the barrier
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
  a[threadIdx.x] += 1.0f; // the threads that left run on
}

// The launch fixes the block: the witness names it.
__global__ void witness_launched(float *a) {
  __shared__ float s[128];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x >= 96)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x >= 96'{{.*}}; witness: thread 96 reaches it and thread 0 does not ('threadIdx.x >= 96' is true in thread 96 and false in thread 0), in the block of 128 threads the file launches [divergence-barrier]
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  // PASCAL: :[[@LINE-3]]:5: error: '__syncthreads()' {{.*}}: on sm_60 the block deadlocks or reads shared memory too early; witness: {{.*}} [divergence-barrier]
  a[threadIdx.x] = s[127 - threadIdx.x];
}
void launch_witness(float *a) { witness_launched<<<1, 128>>>(a); }
// The witness's threads are metrics of the finding (JSON and SARIF).
// JSON: "line": 13,
// JSON: "witness_thread_reaches": 0.0,
// JSON-NEXT: "witness_thread_misses": 100.0
