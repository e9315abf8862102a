// RUN: rm -rf %t && mkdir -p %t
// RUN: not %warplint --checks='-*,launch-occupancy' --arch=sm_80 --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t %s -- | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_61 --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,launch-occupancy' --arch=sm_80,sm_90 --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t %s -- | FileCheck %s --check-prefix=BOTH --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --ptxas=false %s -- | FileCheck %s --check-prefix=NOPTXAS --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --ptxas=false %s -- -Xcuda-ptxas --maxrregcount=40 | FileCheck %s --check-prefix=CAPPED --implicit-check-not='{{warning|error}}:'
// Occupancy per target from the registers ptxas reports (here a fixed
// report, Inputs/occupancy.ptxas, through a stand-in nvcc) and the shared
// memory per block, as the CUDA Occupancy Calculator computes it.
#include <cuda_runtime.h>

__global__ void regs256(float *a) { a[threadIdx.x] = 0; }
__global__ void light(float *a) { a[threadIdx.x] = 0; }
__global__ void toomany(float *a) { a[threadIdx.x] = 0; }
template <int N> __global__ void __launch_bounds__(128, 6) tile(float *a) {
  __shared__ float t[N];
  t[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = t[127 - threadIdx.x];
}
__global__ void dynamic(float *a) {
  extern __shared__ float d[];
  d[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = d[127 - threadIdx.x];
}
__global__ void elsewhere(float *a); // defined in another file

void positives(float *a, int n) {
  // sm_80: 128 registers x 32 lanes = 4096 per warp; a quarter of the SM's
  // 65536 (16384) per sub-partition holds 4 warps, 16 per SM: 2 blocks of 8
  // warps, 16 of 64 = 25%. Three blocks (24 warps, 6 per sub-partition, 8
  // warps more: at least the 10% of MinGain) need at most 16384 / 6 = 2730
  // -> 2560 per warp (256-register units) = 80 per thread.
  regs256<<<n, 256>>>(a);
  // CHECK: :[[@LINE-1]]:16: warning: 'regs256' reaches 25% occupancy on sm_80: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; with 80 registers per thread or fewer, 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80)
  // BOTH: :[[@LINE-2]]:16: warning: 'regs256' reaches 25% occupancy on sm_80 and sm_90: 2 blocks of 256 threads (16 of the 64 warps an SM holds) fit at once, limited by registers: 128 registers per thread (ptxas), 32768 allocated per block of the SM's 65536; with 80 registers per thread or fewer, 3 blocks (24 warps, 38%) would fit (__launch_bounds__(256, 3) or -maxrregcount=80)

  // 255 -> 256 registers x 32 lanes x 32 warps = 262144 > 65536.
  toomany<<<n, 1024>>>(a);
  // CHECK: :[[@LINE-1]]:16: error: 'toomany' cannot be launched with blocks of 1024 threads on sm_80: 255 registers per thread (ptxas, which also spills 48 bytes) need 261120 registers per block, more than the 65536 an SM has for one block; the launch fails (cudaErrorLaunchOutOfResources). Cap them with __launch_bounds__(1024) or use smaller blocks
  // BOTH: :[[@LINE-2]]:16: error: 'toomany' cannot be launched with blocks of 1024 threads on sm_80 and sm_90:

  // 40000 static + 1024 reserved = 41024 -> 41088 (128-byte units); the
  // SM's 164 KB carveout (167936) holds 4: 16 of 64 warps. Five would add 4
  // warps, under MinGain's 7; six need at most 167936 / 6 = 27989 -> 27904
  // allocated, less the 1024 reserved = 26880.
  tile<10000><<<n, 128>>>(a);
  // CHECK: :[[@LINE-1]]:20: warning: 'tile' reaches 25% occupancy on sm_80: 4 blocks of 128 threads (16 of the 64 warps an SM holds) fit at once, limited by shared memory: 41088 bytes of shared memory allocated per block (40000 static + 1024 reserved) of the 167936 an SM has; with 26880 bytes of shared memory per block or less (27904 allocated, the 1024 reserved included), 6 blocks (24 warps, 38%) would fit
  // sm_61: no reserved part, 256-byte units: 40192; 98304 / 40192 = 2;
  // SM61: :[[@LINE-3]]:20: warning: 'tile' reaches 13% occupancy on sm_61: 2 blocks of 128 threads (8 of the 64 warps an SM holds) fit at once, limited by shared memory: 40192 bytes of shared memory allocated per block (40000 static) of the 98304 an SM has (registers not counted: the installed nvcc does not compile for sm_61; __launch_bounds__(128, 6) caps them at 80 per thread); with 24576 bytes of shared memory per block or less, 4 blocks (16 warps, 25%) would fit
  // 4 blocks (8 warps more) need 98304 / 4 = 24576. sm_90: 228 KB (233472)
  // hold 5 of 41088: 20 of 64 warps (31%).
  // BOTH: :[[@LINE-6]]:20: warning: 'tile' reaches 25% occupancy on sm_80: 4 blocks
  // BOTH: :[[@LINE-7]]:20: warning: 'tile' reaches 31% occupancy on sm_90: 5 blocks
  // NOPTXAS: :[[@LINE-8]]:20: warning: 'tile' reaches 25% occupancy on sm_80: {{.*}} (registers not counted: --ptxas=false; __launch_bounds__(128, 6) caps them at 80 per thread); with 26880 bytes of shared memory per block or less (27904 allocated, the 1024 reserved included), 6 blocks (24 warps, 38%) would fit
  // CAPPED: :[[@LINE-9]]:20: warning: 'tile' reaches 25% occupancy on sm_80: {{.*}} (registers not counted: --ptxas=false; __launch_bounds__(128, 6) caps them at 80 per thread; -maxrregcount caps them at 40 per thread); with 26880
}

void negatives(float *a, int n, int threads) {
  light<<<n, 256>>>(a);       // 32 registers: 8 blocks, 64 of 64 warps
  // 12000 dynamic + 1024 reserved = 13056: 12 blocks, 48 of 64 warps (75%).
  dynamic<<<n, 128, 12000>>>(a);
  regs256<<<n, threads>>>(a); // block size known at run time
  regs256<<<1, 256>>>(a);     // one block: no SM to fill
  elsewhere<<<n, 256>>>(a);   // not compiled here: registers unknown
  // More than 48 KB without the opt-in: memory-dynamic-shared-optin's.
  dynamic<<<n, 128, 60000>>>(a);
}

// __launch_bounds__(256, 1): the author asks for one block per SM and gets
// it; the low occupancy is chosen (a register-heavy tile, as in GEMMs).
// 'tile' above asks for 6 and gets 4 (sm_80): still reported.
__global__ void __launch_bounds__(256, 1) chosen(float *a) { a[threadIdx.x] = 0; }
void declared(float *a, int n) {
  chosen<<<n, 256>>>(a);
}
