// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

// Scalar CSR SpMV: one thread per row, each lane starts at its own row's
// offset, loaded from row_ptr. How far apart the lanes are depends on the
// rows' lengths: a note, with the spacing said to be unknown. x[col[j]] is a
// gather through loaded indices: not judged.
__global__ void spmv_csr_scalar(int rows, const int *row_ptr, const int *col,
                                const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; j++)
      sum += val[j] * x[col[j]];
    // CHECK: :[[@LINE-1]]:14: note: each warp load of 'val[j]' may touch up to 32 32-byte sectors for 128 useful bytes on sm_80: each lane walks its own range ('j' starts at 'row_ptr[row]', which each lane loads for itself, and steps by the same amount in every lane), so the lanes' spacing is unknown and depends on the data (slides, 'Coalesce global memory accesses') [memory-uncoalesced-access]
    // CHECK: :[[@LINE-2]]:14: note: when the ranges are long, let the lanes of a warp walk one range together (lane k takes elements k, k + 32, ...), so that consecutive lanes read consecutive addresses
    // CHECK: :[[@LINE-3]]:25: note: each warp load of 'col[j]' may touch up to 32 32-byte sectors for 128 useful bytes on sm_80: each lane walks its own range ('j' starts at 'row_ptr[row]'
    // CHECK: :[[@LINE-4]]:25: note: when the ranges are long
    // PASCAL: :[[@LINE-5]]:14: note: each warp load of 'val[j]' may touch up to 32 32-byte sectors for 128 useful bytes on sm_60: each lane walks its own range
    // JSON: "sectors_per_request_max": 32
    y[row] = sum;
  }
}

// The same walk written with a while loop and 8-byte values, the start
// assigned after the declaration.
__global__ void walk_while(const long long *starts, const double *v,
                           double *out, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long k;
  k = starts[i];
  double acc = 0.0;
  int left = len;
  while (left-- > 0) {
    acc += v[k];
    // CHECK: :[[@LINE-1]]:12: note: each warp load of 'v[k]' may touch up to 32 32-byte sectors for 256 useful bytes on sm_80: each lane walks its own range ('k' starts at 'starts[i]', which each lane loads for itself
    // CHECK: note: when the ranges are long
    k += 2;
  }
  out[i] = acc;
}

// --- Fine: no finding below this line. ---

// CSR vector SpMV: a warp shares a row, lanes step by 32 from
// row_ptr[row] + lane: consecutive lanes, consecutive elements.
__global__ void spmv_csr_vector(int rows, const int *row_ptr, const int *col,
                                const float *val, const float *x, float *y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  int row = warp;
  if (row < rows) {
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
    float sum = 0.0f;
    for (int j = row_start + lane; j < row_end; j += 32)
      sum += val[j] * x[col[j]];
    if (lane == 0)
      y[row] = sum;
  }
}

// Grid-stride loops: `i += blockDim.x * gridDim.x` moves every lane by the
// same amount, the lanes stay consecutive.
__global__ void grid_stride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = 2.0f * in[i];
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] += in[i];
}

// A start loaded at a warp-uniform address is the same in every lane; an
// index that undoes the walk (j - start) is not a walk; a walk that follows
// loaded links (j = next[j]) is not a uniform step; a loaded value that is
// never stepped is a gather, as before.
__global__ void not_walks(const int *row_ptr, const int *next,
                          const float *val, float *out) {
  float acc = 0.0f;
  for (int j = row_ptr[blockIdx.x]; j < row_ptr[blockIdx.x + 1]; j++)
    acc += val[j];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = row_ptr[tid]; j < row_ptr[tid + 1]; j++)
    acc += val[j - row_ptr[tid]];
  for (int j = next[tid]; j >= 0; j = next[j])
    acc += val[j];
  int g = row_ptr[tid];
  acc += val[g];
  out[tid] = acc;
}
