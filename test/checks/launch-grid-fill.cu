// RUN: rm -rf %t && mkdir -p %t
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-occupancy-limits.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-occupancy' --arch=sm_80 %s -- | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-occupancy-limits.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-occupancy' --arch=sm_80 --format=json %s -- | FileCheck %s --check-prefix=JSON
// Occupancy matters only to a grid that the GPU cannot hold in one wave:
// with 128 registers per thread, 2 blocks of 256 threads fit an SM, and the
// 108 SMs of an A100 (sm_80's largest part, arch-data's sm_count) hold 216
// blocks at once. A grid known to be smaller runs in one wave whatever the
// occupancy; one known only at run time gets the warning with a note that
// says when it matters.
#include <cuda_runtime.h>

__global__ void regs256(float *a) { a[threadIdx.x] = 0; } // 128 registers
__global__ void tie(float *a) { a[threadIdx.x] = 0; }     // 128 registers

void run(float *a, int n) {
  // Negative: 200 blocks, resident at once.
  regs256<<<200, 256>>>(a);
  // Negative: 216 blocks, exactly one wave.
  regs256<<<216, 256>>>(a);
  // Positive: 217 blocks need a second wave at 2 blocks an SM.
  regs256<<<217, 256>>>(a);
  // CHECK: :[[@LINE-1]]:18: warning: 'regs256' reaches 25% occupancy on sm_80: 2 blocks of 256 threads
  // Positive, and the note: a grid known only at run time.
  tie<<<n, 256>>>(a);
  // CHECK: :[[@LINE-1]]:12: warning: 'tie' reaches 25% occupancy on sm_80
  // CHECK: :[[@LINE-2]]:12: note: the grid's size is known only at run time: this matters only when it has more blocks than one wave of the GPU holds (the SMs of the architecture's largest part times the blocks per SM above)
  // JSON: "grid_fills_gpu_above_blocks": 216.0
}

// Negative: a launch in a branch its own constants make dead (a dispatch
// macro's literal K: `if (K < 10) ... else ...`) never runs.
#define DISPATCH(K)                                                            \
  if (K < 10)                                                                  \
    tie<<<1, 1024>>>(a);                                                       \
  else                                                                         \
    regs256<<<4096, 256>>>(a);
void dispatch(float *a) {
  DISPATCH(4)
  if constexpr (sizeof(float) == 8)
    regs256<<<8192, 256>>>(a);
}
