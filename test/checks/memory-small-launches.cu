// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// What a kernel's launches say of its memory work: a kernel whose every
// launch runs no more blocks than the GPU has SMs cannot load the memory
// system (latency bounds it): its costs are notes.
#include <cuda_runtime.h>
#include <cmath>

__global__ void tiny(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 32];
  // CHECK: :[[@LINE-1]]:22: note: each warp load of 'in[threadIdx.x * 32]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 128 bytes apart; it moves about {{[0-9]+}}% of the kernel's global sectors, and laying the data out for the warp would save about {{[0-9]+}}% of them; every launch of 'tiny' runs at most 32 warps, fewer than the 108 SMs of sm_80: latency, not memory bandwidth, bounds it, so this is a note
}

__global__ void wide(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'in[i * 32]' touches 32 32-byte sectors
}

// A kernel no launch of this file names may be launched from another file:
// judged as written.
__global__ void elsewhere(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'in[i * 32]' touches 32 32-byte sectors
}

__global__ void tiny_tile(float *out) {
  __shared__ float t[32][32];
  for (int k = 0; k < 32; ++k)
    t[k][threadIdx.x] = out[k * 32 + threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 32; ++k)
    s += t[threadIdx.x][k];
  // CHECK: :[[@LINE-1]]:10: note: 32-way bank conflict on 't[threadIdx.x][k]' on sm_80{{.*}}; every launch of 'tiny_tile' runs at most 2 warps, fewer than the 108 SMs of sm_80
  // CHECK: :[[@LINE-8]]:20: note: padding each row of 't' by one element ([32 + 1]) puts consecutive rows in different banks
  out[threadIdx.x] = s;
}

// A local stepped between the loads: col, col + 1, col + 2, col + 3 fill
// the same sectors (the flow-insensitive address forms see one offset).
__global__ void stepped(const float *bias, float *out, int n) {
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  float a = __ldg(bias + col);
  col = col + 1;
  float b = __ldg(bias + col);
  col += 1;
  float c = __ldg(bias + col);
  col++;
  float d = __ldg(bias + col);
  // CHECK: :[[@LINE-7]]:13: note: each warp load of '__ldg(bias + col)' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; '__ldg(bias + col)', '__ldg(bias + col)', '__ldg(bias + col)' read the rest of the same sectors: together the 4 accesses move 16 sectors for 512 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (64 sectors requested for the 16 the group needs)
  // CHECK: :[[@LINE-8]]:13: note: read the 4 values with one 16-byte access per lane
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

// One column of a row-major matrix, its grid written as polybench writes
// it: a dim3 whose x is assigned a ceil() of constants in floating point
// after its declaration (at most 4 blocks of 256 threads).
__global__ void column(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i * 1024 + 1023] = x[i * 1024 + 1023] / 2;
  // CHECK: :[[@LINE-1]]:5: note: each warp store of 'x[i * 1024 + 1023]' touches 32 32-byte sectors{{.*}}; every launch of 'column' runs at most 32 warps, fewer than the 108 SMs of sm_80
  // CHECK: :[[@LINE-2]]:26: note: each warp load of 'x[i * 1024 + 1023]' touches 32 32-byte sectors{{.*}}; every launch of 'column' runs at most 32 warps, fewer than the 108 SMs of sm_80
}

// The same column with a grid that a later assignment may make large: the
// most it can be counts.
__global__ void column_grown(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i * 1024 + 1023] = x[i * 1024 + 1023] / 2;
  // CHECK: :[[@LINE-1]]:5: warning: each warp store of 'x[i * 1024 + 1023]' touches 32 32-byte sectors
  // CHECK: :[[@LINE-2]]:26: warning: each warp load of 'x[i * 1024 + 1023]' touches 32 32-byte sectors
}

void run_columns(float *x, bool big) {
  dim3 block(256, 1, 1);
  dim3 grid(1, 1, 1);
  grid.x = (size_t)(ceil(((float)1024) / ((float)block.x)));
  column<<<grid, block>>>(x, 1024);
  dim3 grown(1, 1, 1);
  grown.x = (size_t)ceil(((float)1024) / ((float)block.x));
  if (big)
    grown.x = 65536;
  column_grown<<<grown, block>>>(x, 1024);
}

void run(const float *in, float *out) {
  tiny<<<4, 256>>>(in, out);
  wide<<<4096, 256>>>(in, out);
  tiny_tile<<<2, 32>>>(out);
  stepped<<<4096, 256>>>(in, out, 0);
}
