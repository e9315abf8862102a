// The analyses themselves, as --dump-analysis prints them.
// RUN: %warplint --dump-analysis --arch=sm_80 %s -- | FileCheck %s
#include <cuda_runtime.h>

struct P3 { float x, y, z; };
__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// CHECK-LABEL: function 'k'
__global__ void k(const P3 *p, float *out, int n, int m) {
  int i = gid();
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp == 0)
  // CHECK: [[@LINE-1]]:7 branch warp-uniform
    out[lane] = p[i].y;
  if (lane < 16)
  // CHECK: [[@LINE-1]]:7 branch thread-dependent
    out[i * m] = 0.0f;
  for (int j = i; j < n; j += blockDim.x * gridDim.x)
  // CHECK: [[@LINE-1]]:19 branch thread-dependent
    out[j] += out[j * 2 + 1];
  // CHECK: [[@LINE-7]]:5 store global size 4 offset 4*lane lane stride 4
  // CHECK: [[@LINE-8]]:17 load global size 4 offset 12*tid.x + 4 + uniform lane stride 12
  // CHECK: [[@LINE-6]]:5 store global size 4 offset (m * 4)*tid.x + uniform lanes spread by (m * 4)
  // CHECK: [[@LINE-4]]:5 store global size 4 offset 4*tid.x + uniform lane stride 4
  // CHECK: [[@LINE-5]]:15 load global size 4 offset 8*tid.x + 4 + uniform lane stride 8
}

// A launch pins the block shape: 16x16 puts two rows in a warp.
// CHECK-LABEL: function 'tile' block 16x16x1
__global__ void tile(float *out) {
  __shared__ float t[16][17];
  t[threadIdx.y][threadIdx.x] = out[threadIdx.y * 16 + threadIdx.x];
  // CHECK: [[@LINE-1]]:3 store shared size 4 offset 4*tid.x + 68*tid.y lanes irregular
  // CHECK: [[@LINE-2]]:33 load global size 4 offset 4*tid.x + 64*tid.y lane stride 4
}
void launch(float *o) { tile<<<1, dim3(16, 16)>>>(o); }
