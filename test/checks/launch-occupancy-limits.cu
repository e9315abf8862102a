// RUN: rm -rf %t && mkdir -p %t
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-occupancy-limits.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --registers-from=nvcc --cache-dir=%t --checks='-*,launch-occupancy' --arch=sm_80 %s -- | grep -v "the grid's size is known only at run time" | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// The registers of warplint's own code generation (the default route) may
// lie 8 from nvcc's: a verdict that 8 fewer or more would take away is a
// note.
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-occupancy-limits.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-occupancy' --arch=sm_80 %s -- | FileCheck %s --check-prefix=IR
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-occupancy-limits.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --registers-from=nvcc --cache-dir=%t --config-file=%S/Inputs/launch-occupancy-gain0.yaml --arch=sm_80 %s -- | FileCheck %s --check-prefix=GAIN0
// What launch-occupancy suggests is what the CUDA Occupancy Calculator
// (cuda_occupancy.h) gives at the suggested values; every limiting resource
// is named and changed; it is silent where the change adds fewer than
// MinGain points (10 by default: 7 of 64 warps) or the grid is resident
// already. Registers: Inputs/launch-occupancy-limits.ptxas.
#include <cuda_runtime.h>

__global__ void regs256(float *a) { a[threadIdx.x] = 0; } // 128 registers
__global__ void gemm(float *a) { a[threadIdx.x] = 0; }    // 130 registers
__global__ void tie(float *a) {                            // 128 registers
  extern __shared__ float d[];
  d[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = d[255 - threadIdx.x];
}
__global__ void marg(float *a) { a[threadIdx.x] = 0; } // 92 registers
__global__ void smem9k(float *a) {
  __shared__ float buf[2304];
  buf[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = buf[2303 - threadIdx.x];
}
__global__ void smem4k(float *a) {
  __shared__ float buf[1152];
  buf[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = buf[1151 - threadIdx.x];
}

void persistent(float *a) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // Negative: 2 blocks per SM, and 2 fit (128 registers x 256 threads).
  regs256<<<prop.multiProcessorCount * 2, 256>>>(a);
  // Negative: one block per SM of a 130-register GEMM: resident.
  gemm<<<prop.multiProcessorCount, 256>>>(a);
  // Positive: 2 per SM of which 1 fits (130 registers: 4352 per warp, 3
  // per partition, 12 warps).
  gemm<<<prop.multiProcessorCount * 2, 256>>>(a);
  // CHECK: :[[@LINE-1]]:40: warning: 'gemm' reaches 13% occupancy on sm_80: 1 block of 256 threads (8 of the 64 warps an SM holds) fit at once, limited by registers: 130 registers per thread (ptxas), 34816 allocated per block of the SM's 65536; with 128 registers per thread or fewer, 2 blocks (16 warps, 25%) would fit (__launch_bounds__(256, 2) or -maxrregcount=128), and the grid of 2 blocks per SM would be resident at once
  // IR: :[[@LINE-2]]:40: note: 'gemm' reaches 13% occupancy on sm_80: {{.*}} and the grid of 2 blocks per SM would be resident at once; a note, not a warning: the registers are those of warplint's own code generation of the kernel, and nvcc's may differ by 8: with 122 the verdict would not stand (the build's object, or --registers-from=nvcc, gives nvcc's count)
  // Negative: a constant grid of fewer blocks than an SM may hold.
  regs256<<<8, 256>>>(a);
  // Positive: a large constant grid.
  regs256<<<4096, 256>>>(a);
  // CHECK: :[[@LINE-1]]:19: warning: 'regs256' reaches 25% occupancy on sm_80: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; with 80 registers per thread or fewer, 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80)
  // IR: :[[@LINE-2]]:19: warning: 'regs256' reaches 25% occupancy on sm_80: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; with 80 registers per thread or fewer, 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80) [launch-occupancy]
}

void tied(float *a, int n) {
  // Registers (128: 2 blocks) and shared memory (70000 + 1024 = 71040: 2
  // blocks) tie: both are named, and 3 blocks need both changed: 80
  // registers and 167936 / 3 = 55978 -> 55936 allocated, 54912 bytes.
  cudaFuncSetAttribute(tie, cudaFuncAttributeMaxDynamicSharedMemorySize, 70000);
  tie<<<n, 256, 70000>>>(a);
  // CHECK: :[[@LINE-1]]:12: warning: 'tie' reaches 25% occupancy on sm_80: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers and shared memory: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; 71040 bytes of shared memory allocated per block (70000 dynamic + 1024 reserved) of the 167936 an SM has; with 80 registers per thread or fewer and 54912 bytes of shared memory per block or less (55936 allocated, the 1024 reserved included), 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80)
}

void gains(float *a, int n) {
  // 92 registers, 64 threads: 3072 per warp, 5 per partition, 10 blocks (20
  // warps, 31%). The first register step, 80, fits 12 blocks (6 warps per
  // partition), not 11; it adds 4 warps, under the 7 of MinGain, so the
  // step named is 72 registers: 14 blocks, 28 warps.
  marg<<<n, 64>>>(a);
  // CHECK: :[[@LINE-1]]:13: warning: 'marg' reaches 31% occupancy on sm_80: 10 blocks of 64 threads (20 of the 64 warps an SM holds) fit at once, limited by registers: 92 registers per thread (ptxas), 6144 allocated per block of the SM's 65536; with 72 registers per thread or fewer, 14 blocks (28 warps, 44%) would fit (__launch_bounds__(64, 14) or -maxrregcount=72)
  // GAIN0: :[[@LINE-2]]:13: warning: 'marg' reaches 31% occupancy on sm_80: {{.*}}; with 80 registers per thread or fewer, 12 blocks (24 warps, 38%) would fit (__launch_bounds__(64, 12) or -maxrregcount=80)
  // Shared memory: 9216 + 1024 = 10240 per 1-warp block: 16 blocks (25%);
  // 23 blocks (7 warps more) need 167936 / 23 = 7301 -> 7296 allocated.
  smem9k<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:15: warning: 'smem9k' reaches 25% occupancy on sm_80: 16 blocks of 32 threads (16 of the 64 warps an SM holds) fit at once, limited by shared memory: 10240 bytes of shared memory allocated per block (9216 static + 1024 reserved) of the 167936 an SM has; with 6272 bytes of shared memory per block or less (7296 allocated, the 1024 reserved included), 23 blocks (23 warps, 36%) would fit
  // GAIN0: :[[@LINE-2]]:15: warning: 'smem9k' reaches 25% occupancy on sm_80: {{.*}}; with 8832 bytes of shared memory per block or less (9856 allocated, the 1024 reserved included), 17 blocks (17 warps, 27%) would fit
  // Negative: 4608 + 1024 = 5632: 29 blocks (45%); the SM's 32-block limit
  // leaves 3 warps to gain, under MinGain.
  smem4k<<<n, 32>>>(a);
  // GAIN0: :[[@LINE-1]]:15: warning: 'smem4k' reaches 45% occupancy on sm_80: 29 blocks of 32 threads (29 of the 64 warps an SM holds) fit at once, limited by shared memory: {{.*}}; with 4480 bytes of shared memory per block or less (5504 allocated, the 1024 reserved included), 30 blocks (30 warps, 47%) would fit
}

// A switch over data types launches one kernel template per type: the
// verdict and its fix (the kernel's registers) are the same at every case,
// so one finding at the first launch, with the others as notes. An
// instantiation with other registers (130) has a verdict of its own.
template <typename T> __global__ void typed(T *a) { a[threadIdx.x] = 0; }
void by_type(void *a, int n, int type) {
  switch (type) {
  case 0:
    typed<<<n, 256>>>((float *)a);
    // CHECK: :[[@LINE-1]]:16: warning: 'typed' reaches 25% occupancy on sm_80: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; with 80 registers per thread or fewer, 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80)
    // CHECK: :[[@LINE+3]]:16: note: 'typed' is also launched here, with the same verdict
    break;
  case 1:
    typed<<<n, 256>>>((double *)a);
    break;
  case 2:
    typed<<<n, 256>>>((int *)a);
    // CHECK: :[[@LINE-1]]:16: warning: 'typed' reaches 13% occupancy on sm_80: 1 block of 256 threads (8 of the 64 warps an SM holds) fit at once, limited by registers: 130 registers per thread (ptxas)
    break;
  }
}
