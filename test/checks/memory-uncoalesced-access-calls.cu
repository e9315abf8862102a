// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

// ---- positives: the access lies in a function the kernel calls

// A column-major accessor: element (row, col) of a matrix of 64 rows. The
// kernel puts the thread on the column: lanes are 64 floats apart.
__device__ float at(const float *m, int row, int col) {
  return m[col * 64 + row];
// CHECK: :[[@LINE-1]]:10: warning: each warp load of 'm[col * 64 + row]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 256 bytes apart; it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+3]]:22: note: 'at' called from 'column_per_thread' with col = threadIdx.x
}
__global__ void column_per_thread(const float *m, float *out) {
  out[threadIdx.x] = at(m, blockIdx.x, threadIdx.x);
}

// Two levels of helpers, the index and the pointer passed down, and a
// multi-statement body with a loop.
__device__ void store_col(float *m, int col, float v) {
  for (int row = 0; row < 4; ++row) {
    float w = v * row;
    m[col * 64 + row] = w;
// CHECK: :[[@LINE-1]]:5: warning: each warp store of 'm[col * 64 + row]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 256 bytes apart; the other 3 rounds of its loop, which nvcc unrolls, write the rest of the same sectors: together the 4 accesses move 32 sectors for 512 useful bytes (50%); they move about 100% of the kernel's global sectors, and laying the data out for the warp would save about 50% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+4]]:53: note: 'store_col' called from 'scatter' with col = i
// CHECK: :[[@LINE+4]]:38: note: 'scatter' called from 'two_deep' with i = threadIdx.x
  }
}
__device__ void scatter(float *m, int i, float v) { store_col(m, i, v); }
__global__ void two_deep(float *m) { scatter(m, threadIdx.x, 1.0f); }

// A function template: its instantiation's body, with the template
// arguments' values.
template <int LD, typename T> __device__ T load_col(const T *m, int col) {
  T sum = 0;
  sum += m[col * LD];
// CHECK: :[[@LINE-1]]:10: warning: each warp load of 'm[col * LD]' touches 32 32-byte sectors for 256 useful bytes (25% efficiency) on sm_80: consecutive lanes are 128 bytes apart; it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+4]]:22: note: 'load_col' called from 'templated' with col = threadIdx.x
  return sum;
}
__global__ void templated(const double *m, double *out) {
  out[threadIdx.x] = load_col<16>(m, threadIdx.x);
}

// Lambdas applied to the thread index: a [=] lambda with the index as its
// parameter, a [&] lambda that reads the kernel's locals.
__global__ void lambda_by_value(const float *a, float *out) {
  int tid = threadIdx.x;
  auto get = [=](int k) { return a[k * 8]; };
// CHECK: :[[@LINE-1]]:34: warning: each warp load of 'a[k * 8]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart; it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+1]]:14: note: 'lambda' called from 'lambda_by_value' with k = tid
  out[tid] = get(tid);
}
__global__ void lambda_by_reference(float *a) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = 4;
  auto put = [&](float v) { a[tid * stride] = v; };
// CHECK: :[[@LINE-1]]:29: warning: each warp store of 'a[tid * stride]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 75% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+1]]:3: note: 'lambda' called from 'lambda_by_reference'
  put(1.0f);
}

// Fewer lanes: only lanes 0-7 of warp 0 reach the access, 8 sectors for 32
// bytes (all 32 lanes would touch 32).
__device__ void first_eight(float *a, int lane) {
  if (lane < 8)
    a[lane * 8] = 0.0f;
// CHECK: :[[@LINE-1]]:5: warning: each warp store of 'a[lane * 8]' touches 8 32-byte sectors for 32 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart, over the 8 active lanes 0-7; it moves about 25% of the kernel's global sectors, and laying the data out for the warp would save about 22% of them [memory-uncoalesced-access]
// PASCAL: :[[@LINE-2]]:5: warning: each warp store of 'a[lane * 8]' touches 8 32-byte sectors for 32 useful bytes (13% efficiency) on sm_60: consecutive lanes are 32 bytes apart, over the 8 active lanes 0-7
// JSON: "active_lanes": 8
// CHECK: :[[@LINE+2]]:41: note: 'first_eight' called from 'eight_lanes' with lane = threadIdx.x
}
__global__ void eight_lanes(float *a) { first_eight(a, threadIdx.x); }

// ---- negatives

// The accessor with the thread on the row: coalesced.
__global__ void row_per_thread(const float *m, float *out) {
  out[threadIdx.x] = at(m, threadIdx.x, blockIdx.x);
}

// A tail guard with an unknown bound keeps all 32 lanes, as does a
// warp-uniform branch (the warp id): the numbers of a whole warp.
__device__ void put8(float *a, int i) { a[i * 8] = 0.0f; }
// CHECK: :[[@LINE-1]]:41: warning: each warp store of 'a[i * 8]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart; it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 88% of them [memory-uncoalesced-access]
// CHECK: :[[@LINE+4]]:5: note: 'put8' called from 'tail_guard'
__global__ void tail_guard(float *a, int n) {
  int i = threadIdx.x;
  if (i < n)
    put8(a, i);
}
__global__ void warp_uniform(float *a) {
  if (threadIdx.x / 32 == 1)
    a[threadIdx.x * 8] = 0.0f;
// CHECK: :[[@LINE-1]]:5: warning: each warp store of 'a[threadIdx.x * 8]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart; it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 88% of them [memory-uncoalesced-access]
}

// The source analysis stops recursion at the first repeat, and arguments it
// cannot follow make no finding of its own; the optimised code unrolls the
// three levels into m[threadIdx.x * 8], which is reported from there.
__device__ float rec(const float *m, int i, int d) {
  return d == 0 ? m[i] : rec(m, i * 2, d - 1);
// CHECK: :[[@LINE-1]]:19: note: each warp load of 'm[i]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart, as the optimised code of 'recursive' shows it with the calls inlined (its share of the kernel's traffic is not estimated) [memory-uncoalesced-access]
// CHECK: :[[@LINE+3]]:22: note: inlined into 'recursive' here
}
__global__ void recursive(const float *m, const int *idx, float *out) {
  out[threadIdx.x] = rec(m, threadIdx.x, 3) + at(m, 0, idx[threadIdx.x]);
}

int main() { return 0; }
