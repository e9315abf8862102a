// The early-exit rule: a kernel's thread-dependent return (or its last if,
// or a loop under a tail guard that ends it) before a barrier is legal, but
// the exited threads write nothing the survivors read after it, and consume
// nothing the survivors wrote.
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --config-file=%S/Inputs/report-all-exits.yaml --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=ALL
constexpr int B = 256;

// ---- errors: a survivor reads what only exited threads write

__global__ void exit_neighbour(const float *a, float *b, int n) {
  __shared__ float tile[B + 1];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads tile[1], which only thread 1 writes, and that thread has exited when only 1 of the 256 threads pass the tail guard: the value read is stale (assuming blocks of 256 threads: the launch is not known) [divergence-barrier]
  // CHECK: :[[@LINE-5]]:3: note: threads exit here; an exited thread releases the barrier (PTX ISA, 'exit') but writes and reads nothing after it
  // CHECK: :[[@LINE+1]]:10: note: the read of a slot only exited threads write
  b[i] = tile[threadIdx.x + 1];
}

__global__ void exit_wrap(const float *a, float *b, int n) {
  __shared__ float tile[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads tile[1], which only thread 1 writes
  // CHECK: :[[@LINE-5]]:3: note: threads exit here
  // CHECK: :[[@LINE+1]]:10: note: the read of a slot only exited threads write
  b[i] = tile[(threadIdx.x + 1) % B];
}

// A grid-stride loop that ends the kernel: in the tail block's last
// iteration the threads past n leave it and exit, and the last survivor
// reads its neighbour's slot.
__global__ void exit_loop_neighbour(const float *a, float *b, int n) {
  __shared__ float tile[B + 1];
  for (int i = blockIdx.x * B + threadIdx.x; i < n; i += gridDim.x * B) {
    tile[threadIdx.x] = a[i];
    __syncthreads();
    b[i] = tile[threadIdx.x + 1];
    // CHECK: :[[@LINE-2]]:5: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads tile[1], which only thread 1 writes, and that thread has exited when only 1 of the 256 threads pass the tail guard: the value read is stale [divergence-barrier]
    // CHECK: :[[@LINE-5]]:3: note: threads that leave this loop exit, as nothing follows it in the kernel; an exited thread releases the barrier (PTX ISA, 'exit') but writes and reads nothing after it
    // CHECK: :[[@LINE-3]]:12: note: the read of a slot only exited threads write
    // ALL: :[[@LINE-5]]:5: warning: '__syncthreads()' is in a loop that ends the kernel: the threads for which 'i < n' fails leave it and exit, and never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited threads), but HIP on AMD GPUs may wait for them and hang [divergence-barrier]
    __syncthreads();
  }
}

__global__ void exit_mirror(const float *a, float *b, int n) {
  __shared__ float buf[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  buf[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads buf[255], which only thread 255 writes
  // CHECK: :[[@LINE-5]]:3: note: threads exit here
  // CHECK: :[[@LINE+1]]:10: note: the read of a slot only exited threads write
  b[i] = buf[B - 1 - threadIdx.x];
}

// A 1-D stencil's halo: the right halo is loaded by the block's last thread.
__global__ void exit_halo(const float *a, float *b, int n) {
  __shared__ float s[B + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x + 1] = a[i];
  if (threadIdx.x == 0)
    s[0] = i > 0 ? a[i - 1] : 0.0f;
  if (threadIdx.x == B - 1)
    s[B + 1] = a[i + 1];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 0 reads s[2], which only thread 1 writes
  // CHECK: :[[@LINE-9]]:3: note: threads exit here
  // CHECK: :[[@LINE+1]]:27: note: the read of a slot only exited threads write
  b[i] = s[threadIdx.x] + s[threadIdx.x + 2];
}

// Warp leaders' slots: threads 100-255 exit, the leaders of warps 4-7 too.
__global__ void exit_warp_leaders(const float *a, float *out) {
  __shared__ float warp_sum[8];
  if (threadIdx.x >= 100)
    return;
  float v = a[threadIdx.x];
  if (threadIdx.x % 32 == 0)
    warp_sum[threadIdx.x / 32] = v;
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it thread 4 reads warp_sum[4], which only thread 128 writes, and that thread has exited: the value read is stale [divergence-barrier]
  // CHECK: :[[@LINE-7]]:3: note: threads exit here
  // CHECK: :[[@LINE+2]]:15: note: the read of a slot only exited threads write
  if (threadIdx.x < 8)
    out[0] += warp_sum[threadIdx.x];
}

// A histogram: survivors fill any bin, each bin is merged by its owner.
__global__ void exit_histogram(const int *in, int *hist, int n) {
  __shared__ int s_hist[B];
  s_hist[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&s_hist[in[i]], 1);
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' follows a thread-dependent exit, and after it each thread consumes only its own slot of 's_hist': slot 1 belongs to thread 1, which has exited when only 1 of the 256 threads pass the tail guard, so what the survivors wrote there is never consumed (assuming blocks of 256 threads: the launch is not known) [divergence-barrier]
  // CHECK: :[[@LINE-5]]:3: note: threads exit here
  // CHECK: :[[@LINE+1]]:33: note: each slot is consumed here by its owner
  atomicAdd(&hist[threadIdx.x], s_hist[threadIdx.x]);
}

// ---- warning: the indices cannot be decided under a tail guard

__global__ void exit_tree(const float *a, float *out, int n) {
  __shared__ float s[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' follows a tail guard ('i >= n'): the threads past the end exit, and warplint cannot tell whether the survivors read after it only shared memory that survivors wrote; check that no thread reads a slot an exited thread would have written [divergence-barrier]
  // CHECK: :[[@LINE-5]]:3: note: threads that take this exit write nothing after it
  for (int stride = B / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// ---- silent: the survivors read only what survivors wrote

__global__ void exit_own_slot(const float *a, float *b, int n) {
  __shared__ float tile[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = a[i] * 2.0f;
  __syncthreads();
  // ALL: :[[@LINE-1]]:3: warning: '__syncthreads()' follows a thread-dependent exit: the threads that leave at 'i >= n' never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited threads), but HIP on AMD GPUs may wait for them and hang [divergence-barrier]
  // ALL: :[[@LINE-5]]:3: note: the threads that take this exit
  b[i] = tile[threadIdx.x];
}

__global__ void exit_slot_zero(const float *a, float *b, int n) {
  __shared__ float tile[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  b[i] = tile[threadIdx.x] - tile[0];
}

// The grid-stride loop of a hash map's bulk find: the loop ends the kernel,
// and each survivor reads back its own slot.
__global__ void exit_loop_own_slot(const int *keys, long n, int *out) {
  __shared__ int buffer[B];
  long idx = long(B) * blockIdx.x + threadIdx.x;
  while (idx < n) {
    buffer[threadIdx.x] = keys[idx] * 2;
    __syncthreads();
    // ALL: :[[@LINE-1]]:5: warning: '__syncthreads()' is in a loop that ends the kernel: the threads for which 'idx < n' fails leave it and exit, and never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited threads), but HIP on AMD GPUs may wait for them and hang [divergence-barrier]
    // ALL: :[[@LINE-4]]:3: note: the threads that take this exit
    out[idx] = buffer[threadIdx.x];
    idx += long(gridDim.x) * B;
  }
}

// The same loop over groups of TS threads (a hash table's cooperative
// probing): the index divided by the group size still grows with the
// thread index, whole groups leave together, and each group's leader reads
// back its own slot.
template <int BS, int TS>
__global__ void exit_loop_groups(const int *keys, long n, bool *out) {
  __shared__ bool found[BS / TS];
  long idx = (BS * blockIdx.x + threadIdx.x) / TS;
  while (idx < n) {
    if (threadIdx.x % TS == 0)
      found[threadIdx.x / TS] = keys[idx] > 0;
    __syncthreads();
    // ALL: :[[@LINE-1]]:5: warning: '__syncthreads()' is in a loop that ends the kernel: the threads for which 'idx < n' fails leave it and exit, and never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited threads), but HIP on AMD GPUs may wait for them and hang [divergence-barrier]
    // ALL: :[[@LINE-5]]:3: note: the threads that take this exit
    if (threadIdx.x % TS == 0)
      out[idx] = found[threadIdx.x / TS];
    idx += gridDim.x * BS / TS;
  }
}

// Threads 0-127 survive and read slots 0-127.
__global__ void exit_half_mirror(const float *a, float *b) {
  __shared__ float buf[B];
  if (threadIdx.x >= 128)
    return;
  buf[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  b[threadIdx.x] = buf[127 - threadIdx.x];
}

// The left neighbour of a survivor survived too (a 2-D tail).
__global__ void exit_left_neighbour_2d(float *a, int w, int h) {
  __shared__ float s[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h) {
    s[threadIdx.y][threadIdx.x] = a[y * w + x];
    __syncthreads();
    if (threadIdx.x > 0)
      a[y * w + x] += s[threadIdx.y][threadIdx.x - 1];
  }
}

// ---- ReportAllExits: exits inside an if's arms, as upstream projects
// fixed them as ROCm deadlocks. Legal on NVIDIA GPUs, so the default is
// silent; with the option each is a warning at the first barrier after it.

// A uniform test around the thread-dependent one that returns.
__global__ void exit_nested(float *out, const float *in) {
  __shared__ float s[B];
  int tid = threadIdx.x;
  if (blockDim.x <= 32) {
    if (tid == 0)
      return;
  }
  s[tid] = in[tid];
  __syncthreads();
  // ALL: :[[@LINE-1]]:3: warning: '__syncthreads()' follows a thread-dependent exit: the threads that leave at 'tid == 0' never arrive; legal on NVIDIA GPUs (a barrier waits only for non-exited threads), but HIP on AMD GPUs may wait for them and hang [divergence-barrier]
  // ALL: :[[@LINE-5]]:7: note: the threads that take this exit
  out[tid] = s[tid];
}

// Two levels down, in the else arm, and the barrier under a uniform test.
__global__ void exit_nested_else(float *out, const float *in, int n) {
  __shared__ float s[B];
  if (n > 0) {
    if (threadIdx.x < 32) {
      s[threadIdx.x] = 0.0f;
    } else {
      if (threadIdx.x >= n)
        return;
    }
  }
  s[threadIdx.x] = in[threadIdx.x];
  if (n > 1)
    __syncthreads();
  // ALL: :[[@LINE-1]]:5: warning: '__syncthreads()' follows a thread-dependent exit: the threads that leave at 'threadIdx.x >= n' never arrive
  // ALL: :[[@LINE-7]]:9: note: the threads that take this exit
  out[threadIdx.x] = s[threadIdx.x];
}

// Silent with the option too: the nested exit is the whole block's (a test
// of the block index), or no barrier follows it.
__global__ void exit_nested_block(float *out, const float *in, int n) {
  __shared__ float s[B];
  if (blockDim.x <= 32) {
    if (blockIdx.x >= n) {
      out[blockIdx.x] = 0.0f;
      return;
    }
  }
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void exit_nested_no_barrier(float *out, const float *in) {
  __shared__ float s[B];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (blockDim.x <= 32) {
    if (threadIdx.x == 0) {
      out[blockIdx.x] = s[0];
      return;
    }
  }
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(const float *a, float *b, float *c, int n) {
  exit_warp_leaders<<<1, B>>>(a, b);
  exit_half_mirror<<<1, B>>>(a, b);
  exit_left_neighbour_2d<<<dim3(4, 4), dim3(16, 16)>>>(c, n, n);
  exit_loop_neighbour<<<8, B>>>(a, b, n);
  exit_loop_groups<128, 4><<<8, 128>>>(nullptr, n, nullptr);
}
