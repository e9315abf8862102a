// The IR layer's divergence-barrier: barriers only part of the block reaches,
// judged in the kernel that reaches them (helpers, lambdas, templates and
// cooperative groups inlined), each reported once with the branch and the
// call sites.
// REQUIRES: cuda-toolkit
// RUN: not %warplint --checks='-*,divergence-barrier' --ir-layer=only --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: not %warplint --checks='-*,divergence-barrier' --ir-layer=only --arch=sm_60 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=PASCAL
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void divergent_if(float *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = 0;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached by only part of the thread block: it is control-dependent on a thread-dependent branch; this is undefined behaviour on every target (on sm_80, which schedules threads independently{{.*}} [divergence-barrier]
    // CHECK: :[[@LINE-4]]:19: note: the branch that splits the block
    // PASCAL: :[[@LINE-3]]:5: error: {{.*}} (on sm_60, where a barrier counts whole warps{{.*}}[divergence-barrier]
  }
  a[threadIdx.x + 16] += 1; // the threads that skipped are still running
}

// A helper with a divergent barrier, and work after its call: its threads
// that skip the barrier go back to the kernel and run on.
__device__ void sync_some() {
  if (threadIdx.x < 16)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached
  // CHECK: :[[@LINE-3]]:19: note: the branch that splits the block
  // CHECK: :[[@LINE+4]]:3: note: called from 'helper_called_last' here
}
__global__ void helper_called_last(float *a) {
  a[threadIdx.x] = 0;
  sync_some();
  a[threadIdx.x] += 1;
}

// The threads that leave the loop early run on after it.
__global__ void thread_trip_count(float *a, int n) {
  for (int i = threadIdx.x; i < n; i += 32) {
    a[i] += 1;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached
    // CHECK: :[[@LINE-4]]:3: note: the branch that splits the block
  }
  a[threadIdx.x] *= 2;
}

__global__ void switch_on_lane(int *a) {
  switch (threadIdx.x % 4) {
  case 0:
    __syncthreads_count(a[0] > 0);
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads_count()' may be reached
    // CHECK: :[[@LINE-4]]:3: note: the branch that splits the block
    break;
  default:
    a[threadIdx.x] = 0;
  }
}

__device__ void inner(float *s) {
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' may be reached
  // CHECK: :[[@LINE+8]]:19: note: the branch that splits the block
  // CHECK: :[[@LINE+4]]:35: note: called from 'outer' here
  // CHECK: :[[@LINE+7]]:5: note: called from 'two_levels' here
  s[threadIdx.x] = 0;
}
__device__ void outer(float *s) { inner(s); }
__global__ void two_levels(float *a) {
  __shared__ float s[256];
  if (threadIdx.x < 16)
    outer(s);
  // A second divergent call site of the same barrier: reported once.
  if (threadIdx.x > 200)
    outer(s);
  a[threadIdx.x] = s[threadIdx.x];
}

__global__ void lambda(float *a) {
  auto sync = [&] {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached
    // CHECK: :[[@LINE+3]]:7: note: the branch that splits the block
    // CHECK: :[[@LINE+2]]:24: note: called from 'lambda' here
  };
  if (threadIdx.x & 1) sync();
  a[threadIdx.x] = 0;
}

template <typename T> __device__ void store_then_sync(T *s, T v) {
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' may be reached
  // CHECK: :[[@LINE+5]]:22: note: the branch that splits the block
  // CHECK: :[[@LINE+4]]:27: note: called from 'templated' here
}
__global__ void templated(double *a) {
  __shared__ double s[256];
  if (a[threadIdx.x] > 0) store_then_sync(s, 1.0);
  a[threadIdx.x] = s[threadIdx.x];
}

// The barrier lies in a system header: each user call into it is reported.
__global__ void block_sync(float *a) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 32)
    block.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'sync', which executes '__barrier_sync()', may be reached
  // CHECK: :[[@LINE-3]]:27: note: the branch that splits the block
  if (threadIdx.x & 1)
    cg::sync(block);
  // CHECK: :[[@LINE-1]]:5: error: 'sync<cooperative_groups::{{.*}}thread_block>', which executes '__barrier_sync()', may be reached
  // CHECK: :[[@LINE-3]]:7: note: the branch that splits the block
  a[threadIdx.x] = 0;
}

__global__ void asm_barrier(float *a) {
  if (a[threadIdx.x] > 0)
    asm volatile("bar.sync 0;");
  // CHECK: :[[@LINE-1]]:5: error: 'bar.sync' may be reached
  // CHECK: :[[@LINE-3]]:22: note: the branch that splits the block
  a[threadIdx.x] = 0;
}

__global__ void suppressed(float *a) {
  if (threadIdx.x == 0)
    __syncthreads(); // NOLINT(divergence-barrier)
  a[threadIdx.x] = 0;
}
