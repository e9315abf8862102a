// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_50 %s -- -std=c++17 | FileCheck %s --check-prefix=MAXWELL
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
// RUN: cp %s %t.cu && %warplint --fix --checks='-*,memory-shared-bank-conflict' --arch=sm_80 %t.cu -- -std=c++17 > /dev/null
// RUN: %strip-checks %t.cu | FileCheck %s --check-prefix=FIXED
#include <cuda_runtime.h>

// A column of a 32x32 float tile: all 32 lanes in one bank.
__global__ void column_read(float *out) {
  __shared__ float tile[32][32];
  // FIXED: __shared__ float tile[32][32 + 1];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK: :[[@LINE-1]]:41: warning: 32-way bank conflict on 'tile[threadIdx.x][threadIdx.y]' on sm_80: a warp's load hits 32 different 4-byte words in one of the 32 banks (consecutive lanes are 128 bytes apart), so it takes 32 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 63% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  // CHECK: :[[@LINE-6]]:20: note: padding each row of 'tile' by one element ([32 + 1]) puts consecutive rows in different banks
  // MAXWELL: :[[@LINE-3]]:41: warning: 32-way bank conflict on 'tile[threadIdx.x][threadIdx.y]' on sm_50
  // JSON: "bank_conflict_ways": 32
}

// Strides with a common factor with 32: 2-way and 32-way; a store counts too.
#define N 1024
__global__ void strided(float *out) {
  __shared__ float s[N * 2];
  s[threadIdx.x * 2] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: note: 2-way bank conflict on 's[threadIdx.x * 2]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 8 bytes apart)
  // CHECK: :[[@LINE-3]]:20: note: pad the rows of 's' or permute (swizzle) its index
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32];
  // CHECK: :[[@LINE-1]]:22: warning: 32-way bank conflict on 's[threadIdx.x * 32]'
  // CHECK: note: pad the rows of 's'
}

// 8-byte elements: a warp is served 16 lanes at a time, so a column of
// doubles is 16-way.
__global__ void double_column(double *out) {
  __shared__ double d[32][32];
  // FIXED: __shared__ double d[32][32 + 1];
  d[threadIdx.y][threadIdx.x] = 0.0;
  __syncthreads();
  out[threadIdx.x] = d[threadIdx.x][0];
  // CHECK: :[[@LINE-1]]:22: warning: 16-way bank conflict on 'd[threadIdx.x][0]'
  // CHECK: note: padding each row of 'd' by one element ([32 + 1])
}

// The interleaved tree reduction ("Optimizing Parallel Reduction", kernel
// 2): the stride 2 * s grows with s, from 2-way to 32-way (every lane taken
// as active: the `index < blockDim.x` guard is not modelled).
__global__ void reduce_interleaved(const float *in, float *out) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    // CHECK: :[[@LINE-1]]:7: warning: 32-way bank conflict on 'sdata[index]' on sm_80 at worst, 2-way to 32-way over the loop (s = 1, 2, 4, ... while s < blockDim.x): a warp's load and store hits up to 32 different 4-byte words in one of the 32 banks (consecutive lanes are 8 to 128 bytes apart)
    // CHECK: note: pad the index into 'sdata'
    // CHECK: :[[@LINE-3]]:23: warning: 32-way bank conflict on 'sdata[index + s]' on sm_80 at worst, 2-way to 32-way over the loop
    // CHECK: note: pad the index into 'sdata'
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A run-time stride with a known factor: at least 2-way, whatever s is.
__global__ void runtime_even_stride(float *out, unsigned s) {
  __shared__ float sh[1024];
  out[threadIdx.x] = sh[2 * s * threadIdx.x];
  // CHECK: :[[@LINE-1]]:22: note: at least 2-way bank conflict on 'sh[2 * s * threadIdx.x]' on sm_80: consecutive lanes are (2 * s * 4) bytes apart, a multiple of 2 words, so whenever that is not 0 every bank serves 2 or more different words of a warp's load (slides, 'Shared memory bank conflicts'); the extra passes are about 10% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
}

// Inside a macro: named by the macro's invocation, with the macro in a note.
#define EVERY_32ND(p) p[threadIdx.x * 32]
__global__ void in_macro(float *out) {
  __shared__ float flat[1024];
  EVERY_32ND(flat) = 1.0f;
  // CHECK: :[[@LINE-1]]:14: warning: 32-way bank conflict on 'EVERY_32ND(flat)' on sm_80: a warp's store hits 32 different 4-byte words in one of the 32 banks (consecutive lanes are 128 bytes apart), so it takes 32 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 76% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  // CHECK: memory-shared-bank-conflict.cu:[[@LINE-5]]:23: note: expanded from macro 'EVERY_32ND'
  // CHECK: :[[@LINE-4]]:20: note: pad the rows of 'flat' or permute (swizzle) its index so that the lanes of a warp fall in different banks
  __syncthreads();
  out[threadIdx.x] = flat[threadIdx.x];
}

// With 16x16 blocks (the launch below) a warp is two rows of 16 threads:
// lanes x and x + 2 of one row are 128 bytes apart, in one bank: 8-way, not
// the 16-way of 32 lanes along x.
__global__ void sixteen_square(float *out) {
  __shared__ float sq[16][16];
  sq[threadIdx.x][threadIdx.y] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: warning: 8-way bank conflict on 'sq[threadIdx.x][threadIdx.y]' on sm_80: a warp's store hits 8 different 4-byte words in one of the 32 banks (its lanes' addresses are not evenly spaced), so it takes 8 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 54% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  // CHECK: :[[@LINE-3]]:20: note: pad the rows of 'sq' or permute (swizzle) its index
  __syncthreads();
  out[threadIdx.x] = sq[threadIdx.y][threadIdx.x];
}
void launch_sixteen_square(float *out) {
  dim3 block(16, 16);
  sixteen_square<<<1024, block>>>(out);
}

// --- Fine: no finding below this line. ---

// Rows, padded columns, odd strides, broadcasts, 8- and 16-byte unit strides,
// and the tree reduction.
__global__ void conflict_free(float *out, double *outd, float4 *out4, int k) {
  __shared__ float row[32][32];
  __shared__ float padded[32][33];
  __shared__ float odd[32 * 3];
  __shared__ double dd[256];
  __shared__ float4 vv[256];
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  row[threadIdx.y][tid] = padded[tid][threadIdx.y] + odd[tid * 3] + row[0][0] +
                          row[k][3] + odd[tid / 32];
  outd[tid] = dd[tid];
  out4[tid] = vv[tid];
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[tid] = sdata[0];
}

// Sequential addressing (kernel 3 of the same talk) and a run-time stride
// with no known factor: nothing to report.
__global__ void reduce_sequential(float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[tid] = sdata[tid * n];
}

// Global memory is not shared memory.
__global__ void global_only(float *g) { g[threadIdx.x * 32] = 0.0f; }

// Padding is not offered when the array is also used as a flat buffer.
__global__ void flat_use(float *out) {
  __shared__ float t[32][32];
  float *flat = &t[0][0];
  flat[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][1];
  // CHECK: :[[@LINE-1]]:22: warning: 32-way bank conflict on 't[threadIdx.x][1]'
  // CHECK: :[[@LINE-6]]:20: note: pad the rows of 't' or permute
  // FIXED: __shared__ float t[32][32];
}
