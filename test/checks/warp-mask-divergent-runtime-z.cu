// RUN: not %warplint --checks='-*,warp-mask-divergent' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// A block whose z is known only at run time (dim3(32, 1, z)): the lanes of a
// warp are one z-slice's, but blockDim.z has no value. A condition on it
// splits the warp in an unknown way; it is not judged as if z were 1 ("only
// lane 0 of warp 0 reach it").
__global__ void runtime_z(float *a) {
  float v = a[threadIdx.x];
  if (threadIdx.x < blockDim.z)
    v += __shfl_down_sync(0xffffffff, v, 1);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down_sync' expects the full mask, but only the lanes where 'threadIdx.x < blockDim.z' holds reach it (the condition depends on each thread's data or a run-time bound), and the others go on to other code
  // CHECK: :[[@LINE-3]]:7: note: this condition can split the warp
  // CHECK: :[[@LINE+2]]:3: note: the lanes that skip the call go on here
  // CHECK: :[[@LINE-4]]:10: note: take the mask before the branch
  a[threadIdx.x] = v;
  __syncwarp();
  a[threadIdx.x + 32] = v;
}
void run(float *a, int z) { runtime_z<<<1, dim3(32, 1, z)>>>(a); }
