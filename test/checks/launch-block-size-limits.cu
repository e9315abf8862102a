// RUN: rm -rf %t && mkdir -p %t
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80 %s -- | grep -v "the grid's size is known only at run time" | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: env FAKE_PTXAS_REPORT=%S/Inputs/launch-block-size.ptxas %warplint --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t --checks='-*,launch-block-size' --arch=sm_80,sm_86 %s -- | FileCheck %s --check-prefix=TWO
// RUN: %warplint --ptxas=false --checks='-*,launch-block-size' --arch=sm_80 %s -- | FileCheck %s --check-prefix=NOPTXAS
// The occupancy verdict of launch-block-size holds only where the SM's block
// limit binds after registers (ptxas: Inputs/launch-block-size.ptxas) and
// shared memory are counted, for a grid that can give an SM more blocks
// than fit; a block that is also the kernel's __shared__ tile gets a note.
#include <cuda_runtime.h>

__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
// 9216 bytes of __shared__ + 1024 reserved: 16 blocks of 1 warp fit.
__global__ void smem32(float *a) {
  __shared__ float buf[2304];
  buf[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = buf[2303 - threadIdx.x];
}
// 96 registers: 3072 per warp, 5 warps per partition: 20 blocks of 1 warp.
__global__ void regs96(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
// 56 registers: 1792 per warp, 9 per partition, 36 warps: the block limit
// (32) binds at 32 threads; blocks of 64 reach 36 warps, not 64.
__global__ void mid(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }

// A static kernel: clang mangles it _ZL7sregs96Pf, and so is the entry of
// warplint's PTX; nvcc's ptxas reports it as _Z7sregs96Pf (the report has
// both); its 96 registers are counted all the same.
static __global__ void sregs96(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }

void occupancy(float *a, int n, int bytes) {
  // Positive: nothing but the block limit holds 32-thread blocks.
  k<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks, so at most 32 of its 64 warps (50% occupancy) are resident, the block limit binding before registers and shared memory (16 registers per thread (ptxas), 1024 bytes of shared memory per block); blocks of 64 threads, with the same registers and shared memory per block, reach 64 warps (100%)
  // NOPTXAS: :[[@LINE-2]]:10: warning: 'k' is launched with blocks of 32 threads, {{.*}} (1024 bytes of shared memory per block (registers not counted: --ptxas=false)); blocks of 64 threads
  // Negative: shared memory holds it at 16 blocks first; a larger block
  // would not fill the SM either.
  smem32<<<n, 32>>>(a);
  // Negative: registers hold it at 20 blocks first.
  regs96<<<n, 32>>>(a);
  sregs96<<<n, 32>>>(a);
  // Positive, with the fix that stays true: 64-thread blocks reach the 36
  // warps registers allow, not full occupancy.
  mid<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:12: warning: 'mid' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks, so at most 32 of its 64 warps (50% occupancy) are resident, the block limit binding before registers and shared memory (56 registers per thread (ptxas), 1024 bytes of shared memory per block); blocks of 64 threads, with the same registers and shared memory per block, reach 36 warps (56%)
  // Negative: dynamic shared memory known only at run time.
  k<<<n, 32, bytes>>>(a);
  // Positive: a constant dynamic size that leaves the block limit binding.
  k<<<n, 32, 1024>>>(a);
  // CHECK: :[[@LINE-1]]:10: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: {{.*}} (16 registers per thread (ptxas), 2048 bytes of shared memory per block); blocks of 64 threads
}

static unsigned iDivUp(size_t a, size_t b) { return (a + b - 1) / b; }
void grids(float *a, int n) {
  // Negative: a demo grid written with constants, fewer blocks than one SM
  // holds: it cannot fill the GPU, lanes and block limit aside.
  k<<<2, 8>>>(a);
  k<<<dim3(2, 2), dim3(2, 2, 2)>>>(a);
  k<<<16, 32>>>(a);
  // Negative: 1024 / 32 = 32 blocks of one warp, through a local struct's
  // field and a ceiling-division helper: fewer than 64.
  cudaExtent extent = {1024, 0, 0};
  dim3 block(32, 1, 1);
  dim3 grid(iDivUp(extent.width, block.x), 1, 1);
  k<<<grid, block>>>(a);
  dim3 half(iDivUp(extent.width, block.x) / 2);
  k<<<half, 32>>>(a);
  // Positive: 4194304 / 32 = 131072 blocks, folded the same way: more than
  // the 108 SMs of an A100 times 32 blocks.
  cudaExtent wide = {4194304, 0, 0};
  k<<<iDivUp(wide.width, 32), 32>>>(a);
  // CHECK: :[[@LINE-1]]:31: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks
  // Negative: 65536 / 32 = 2048 blocks are 19 an SM over 108 SMs, under
  // the limit of 32: the limit never binds.
  cudaExtent mid = {65536, 0, 0};
  k<<<iDivUp(mid.width, 32), 32>>>(a);
  // Positive beside them: a constant grid of 64 blocks.
  k<<<64, 8>>>(a);
  // CHECK: :[[@LINE-1]]:11: warning: 'k' is launched with blocks of 8 threads, not a multiple of the warp size (32): the last warp of every block runs 8 of its 32 lanes, so 24 of the 32 lanes the block occupies (75%) idle on sm_80
  // Negative: 64 blocks of one warp never reach the limit.
  k<<<64, 32>>>(a);
  k<<<4096, 32>>>(a);
  // CHECK: :[[@LINE-1]]:13: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks
  // Negative: a persistent grid of 4 blocks per SM, all resident at once.
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  k<<<prop.multiProcessorCount * 4, 32>>>(a);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  k<<<dim3(sms * 32), 32>>>(a);
  // Negative: sized by the occupancy API.
  int perSM = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, k, 32, 0);
  k<<<sms * perSM, 32>>>(a);
  // Positive: 64 blocks per SM, of which 32 fit.
  k<<<prop.multiProcessorCount * 64, 32>>>(a);
  // CHECK: :[[@LINE-1]]:38: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks
}

// The block is the algorithm's tile: the name that sizes it sizes the
// kernel's __shared__ arrays too (a 16-wide wavefront tile; a perimeter
// kernel of 2 * TILE threads over TILE x TILE tiles). Notes, not warnings.
#define WAVE 16
#define TILE 16
__global__ void tiled(int *m) {
  __shared__ int t[WAVE + 1][WAVE + 1];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x % WAVE][0] = m[i];
  __syncthreads();
  m[i] = t[0][threadIdx.x % WAVE];
}
__global__ void perim(float *m) {
  __shared__ float dia[TILE][TILE];
  dia[threadIdx.x % TILE][0] = m[threadIdx.x];
  __syncthreads();
  m[threadIdx.x] = dia[0][threadIdx.x % TILE];
}
void tiles(int *m, float *f, int n) {
  dim3 wave(WAVE, 1);
  tiled<<<n, wave>>>(m);
  // CHECK: :[[@LINE-1]]:14: note: 'tiled' is launched with blocks of 16 threads, not a multiple of the warp size (32): the last warp of every block runs 16 of its 32 lanes, so 16 of the 32 lanes the block occupies (50%) idle on sm_80; 'WAVE' also sizes its __shared__ 't': the block is the algorithm's tile, and another block size is another tiling
  perim<<<n, TILE * 2>>>(f);
  // CHECK: :[[@LINE-1]]:14: note: 'perim' is launched with blocks of 32 threads, too small to fill an SM on sm_80: {{.*}} reach 64 warps (100%); 'TILE' also sizes its __shared__ 'dia': the block is the algorithm's tile, and another block size is another tiling
  // Positive beside them: the same kernel, a block size of its own.
  tiled<<<n, 48>>>(m);
  // CHECK: :[[@LINE-1]]:14: warning: 'tiled' is launched with blocks of 48 threads, not a multiple of the warp size (32)
  // Dynamic shared memory sized by the block's name.
  k<<<n, WAVE, WAVE * sizeof(float)>>>(f);
  // CHECK: :[[@LINE-1]]:10: note: 'k' is launched with blocks of 16 threads, {{.*}}; 'WAVE' also sizes its dynamic shared memory: the block is the algorithm's tile, and another block size is another tiling
}

// A block size chosen per instantiation of a generic lambda (a run-time
// block size dispatched to constants): the size is the caller's, not this
// launch's. Negative.
template <class F> void dispatch(F &&f, int bs) {
  switch (bs) {
  case 32:
    return f(std::integral_constant<int, 32>{});
  case 256:
    return f(std::integral_constant<int, 256>{});
  }
}
void dispatched(float *a, int n, int bs) {
  auto launch = [&](auto c) { k<<<n, c.value>>>(a); };
  dispatch(launch, bs);
}

// A branch on the problem's size picks the block: one warp for short rows,
// 1024 threads otherwise, for the same kernel. The small block is the
// author's choice for small problems. Negative.
void by_row_length(float *a, int n, int ncols) {
  if (ncols < 1024)
    k<<<n, 32>>>(a);
  else
    k<<<n, 1024>>>(a);
}
// Positive beside it: the other arm launches another kernel, so nothing
// says the 32-thread block is chosen for small problems.
void other_kernel(float *a, int n, int ncols) {
  if (ncols < 1024)
    k<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:12: warning: 'k' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks
  else
    mid<<<n, 1024>>>(a);
}

// One launch in a launcher template, instantiated for float and double:
// one finding, whose registers are the range ptxas gives the two kernels
// (19 and 22), not two findings or "sm_80 and sm_80".
template <typename T> __global__ void inst(T *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
template <typename T> void launch_inst(T *a, int n) {
  inst<<<n, 32>>>(a);
  // CHECK: :[[@LINE-1]]:13: warning: 'inst' is launched with blocks of 32 threads, too small to fill an SM on sm_80: it holds at most 32 blocks, so at most 32 of its 64 warps (50% occupancy) are resident, the block limit binding before registers and shared memory (19 to 22 registers per thread (ptxas, over 2 instantiations), 1024 bytes of shared memory per block); blocks of 64 threads, with the same registers and shared memory per block, reach 64 warps (100%)
  // TWO: :[[@LINE-2]]:13: warning: 'inst' is launched with blocks of 32 threads, too small to fill an SM on sm_80: {{.*}} (19 to 22 registers per thread (ptxas, over 2 instantiations), 1024 bytes of shared memory per block)
  // TWO-NEXT: {{^}}  [[@LINE-3]] |
  // TWO: :[[@LINE-4]]:13: warning: 'inst' is launched with blocks of 32 threads, too small to fill an SM on sm_86: {{.*}} (19 to 24 registers per thread (ptxas, over 2 instantiations), 1024 bytes of shared memory per block)
}
void instantiations(float *f, double *d, int n) {
  launch_inst(f, n);
  launch_inst(d, n);
}

// A kernel that never reads blockDim is written for its block size (ggml's
// dequantize kernels: 'tid/8', 'tid%8', 'yy + 256*blockIdx.x', "assume 32
// threads"): a larger block alone would compute other elements. A note,
// not a warning; the same launch of a kernel that reads blockDim warns.
__global__ void fixed32(const unsigned char *q, float *y) {
  const int i = blockIdx.x, il = threadIdx.x / 8, ir = threadIdx.x % 8;
  y[256 * i + 32 * ir + 4 * il] = q[8 * i + ir];
}
__device__ int stride_of() { return blockDim.x * gridDim.x; }
__global__ void via_helper(float *a, int n) {
  for (int i = threadIdx.x; i < n; i += stride_of())
    a[i] = 0;
}
void written_for_32(const unsigned char *q, float *y, int n) {
  fixed32<<<n, 32>>>(q, y);
  // CHECK: :[[@LINE-1]]:16: note: 'fixed32' is launched with blocks of 32 threads, too small to fill an SM on sm_80: {{.*}}; 'fixed32' never reads blockDim: its indexing is written for this block size, and another block size is a change to the kernel
  fixed32<<<n, 100>>>(q, y);
  // CHECK: :[[@LINE-1]]:16: note: 'fixed32' is launched with blocks of 100 threads, not a multiple of the warp size (32): {{.*}}; 'fixed32' never reads blockDim
  // Positive: blockDim read in a helper it calls.
  via_helper<<<n, 32>>>(y, n);
  // CHECK: :[[@LINE-1]]:19: warning: 'via_helper' is launched with blocks of 32 threads, too small to fill an SM on sm_80
}
