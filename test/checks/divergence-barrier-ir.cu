// The optimised IR decides what exists, and gives witnesses where the
// source alone names none.
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 --ir-layer=false %s -- -std=c++17 | FileCheck %s --check-prefix=AST --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON

// Conditions the source computes from the thread index but -O3 folds: the
// branch, and the barrier's split with it, are gone. From the source alone
// they are warnings without a witness.
__global__ void masked_to_zero(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if ((threadIdx.x & 0) == 0)
    __syncthreads();
  // (The source's launch shape settles this one too.)
  a[threadIdx.x] = s[255 - threadIdx.x];
}
__global__ void cancelled_xor(float *a, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  int t = threadIdx.x;
  int u = t ^ t;
  if (u < n)
    __syncthreads();
  // AST: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'u < n'{{.*}}; no witness: warplint found no two threads of a launch that part here
  // AST: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = s[255 - threadIdx.x];
}
// The thread index register's range: every thread of any block passes.
__global__ void below_block_limit(float *a, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 1024 && n > 0)
    __syncthreads();
  // AST: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < 1024 && n > 0'{{.*}}; no witness
  // AST: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// Positive beside them: the same look with a split that stays.
__global__ void masked_to_one(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if ((threadIdx.x & 1) == 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition '(threadIdx.x & 1) == 0', which depends on the thread; {{.*}}; witness: thread 0 reaches it and thread 1 does not ('(threadIdx.x & 1) == 0' is true in thread 0 and false in thread 1), in the block of 256 threads the file launches [divergence-barrier]
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  // AST: :[[@LINE-3]]:5: error: '__syncthreads()' is reached by only part of the thread block
  // AST: :[[@LINE-5]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// A template no launch instantiates: only the source can judge it, and the
// message says so.
template <int N> __global__ void never_instantiated(float *a) {
  if (threadIdx.x < N)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is under the condition 'threadIdx.x < N'{{.*}} (judged from the source: the IR layer has no code of this function, such as a template this file never instantiates) [divergence-barrier]
  // CHECK: :[[@LINE-3]]:7: note: this condition splits the threads of the block
  // AST: :[[@LINE-3]]:5: error: '__syncthreads()' is reached by only part of the thread block
  // AST: :[[@LINE-5]]:7: note: this condition splits the threads of the block
  a[threadIdx.x] = 0.0f;
}

// A warp's vote on data: the source names no two threads; the IR finds the
// read each thread makes at its own address, and the vote makes the two
// threads of different warps.
__global__ void vote_per_warp(const float *mask, int *out, int n) {
  __shared__ float s[128];
  int j = n - 128;
  for (; j >= 0; j -= 128) {
    s[threadIdx.x] = mask[j + threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'j >= 0' differs between warps){{.*}}; witness: threads 0 and 32, of different warps, read the value at line [[@LINE+4]] at different addresses, and '!__all_sync(0xffffffff, isinf(s[threadIdx.x ^ 1]))' is computed from it: for inputs where the two values differ, one reaches it and the other does not [divergence-barrier]
    // CHECK: :[[@LINE-4]]:10: note: the loop condition that varies between threads
    // AST: :[[@LINE-3]]:5: warning: '__syncthreads()' is reached by only part of the thread block{{.*}}; no witness
    // AST: :[[@LINE-6]]:10: note: the loop condition that varies between threads
    if (!__all_sync(0xffffffff, isinf(s[threadIdx.x ^ 1])))
      break;
  }
  out[threadIdx.x] = j;
}

// A per-thread trip count the IR runs to the end with the constants every
// launch passes: 1000 items over 256 threads.
__global__ void chunk_of(const int *in, int *hist, int chunk) {
  __shared__ int s[256];
  s[threadIdx.x] = 0;
  for (int i = threadIdx.x; i < chunk; i += blockDim.x) {
    atomicAdd(&s[in[i] & 255], 1);
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: it is inside a loop whose trip count differs between threads (the condition 'i < chunk' depends on the thread){{.*}}; witness: thread 0 arrives at it 4 times and thread 232 3 times in a run of the kernel with the arguments every launch in the file passes (they part where 'i < chunk' is true in thread 0 and false in thread 232 in round 4 of the loop), in the block of 256 threads the file launches [divergence-barrier]
    // CHECK: :[[@LINE-4]]:29: note: the loop condition that varies between threads
    // AST: :[[@LINE-3]]:5: error: '__syncthreads()' is reached by only part of the thread block
    // AST: :[[@LINE-6]]:29: note: the loop condition that varies between threads
  }
  hist[threadIdx.x] = s[threadIdx.x];
}

// A loop one thread leaves by a break, with a helper's barrier at its top:
// the barrier after the break, in the round it leaves, is the finding; the
// helper's, before the break, is the same defect a round later (if the
// others run one: here they leave on the flag) and is not reported again.
__device__ void stage(float *s) {
  s[threadIdx.x] += 1.0f;
  __syncthreads();
}
__global__ void break_then_round(float *a, const int *stop) {
  __shared__ float s[128];
  __shared__ int done;
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x == 0)
    done = 0;
  for (int round = 0; round < 8; ++round) {
    stage(s);
    if (threadIdx.x == 0) {
      if (stop[round]) {
        done = 1;
        break;
      }
    }
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' is reached by only part of the thread block: some threads leave or skip iterations of the loop around it (a 'break' under a thread-dependent condition){{.*}}; witness: thread 1 reaches it and thread 0 does not in the round where it leaves or skips ('threadIdx.x == 0' is false in thread 1 and true in thread 0), in the block of 128 threads the file launches [divergence-barrier]
    // CHECK: :[[@LINE-5]]:9: note: threads that take this 'break' miss the barrier
    // AST: :[[@LINE-3]]:5: error: '__syncthreads()' is reached by only part of the thread block
    // AST: :[[@LINE-7]]:9: note: threads that take this 'break' miss the barrier
    if (done)
      break;
  }
  a[threadIdx.x] = s[threadIdx.x];
}

void host(float *a, const int *in, int *hist, const int *stop, int *out) {
  masked_to_zero<<<1, 256>>>(a);
  cancelled_xor<<<1, 256>>>(a, 4);
  below_block_limit<<<1, 256>>>(a, 4);
  masked_to_one<<<1, 256>>>(a);
  vote_per_warp<<<1, 128>>>(a, out, 1024);
  chunk_of<<<1, 256>>>(in, hist, 1000);
  break_then_round<<<1, 128>>>(a, stop);
}

// JSON: "check": "divergence-barrier"
// JSON: "witness_thread_reaches": 0
// JSON: "witness_thread_misses": 232
