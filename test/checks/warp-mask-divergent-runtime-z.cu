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

// ---- a lane loop bounded by blockDim.z (r = threadIdx.x, 0-3; r +=
// 4), judged by each lane's trip count at the launch

// blockDim.z = 24, a literal: every lane runs 6 iterations.
__global__ void z_literal(float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = threadIdx.x;
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    acc += v;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x * 8 + threadIdx.y] = acc;
}

// blockDim.z is 24 or 32, a choice of constants the host makes at run time
// (block_size 768 or 1024 over 4 x 8): 6 or 8 iterations in every lane.
__global__ void z_choice(float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = threadIdx.x;
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    acc += v;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x * 8 + threadIdx.y] = acc;
}

// 32 or 64 threads: blockDim.z is 1 or 2; with 1, lane 0 of each group of 4
// runs one iteration and the others none.
__global__ void z_choice_small(float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = threadIdx.x;
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    // CHECK: :[[@LINE-1]]:10: error: '__shfl_down_sync' expects the full mask, but the lanes of a warp can leave the loop on 'r < blockDim.z' after different numbers of iterations (8 lanes of warp 0 run it the most, with blockDim.z = 1, one of 2 values the launches choose), and those that leave first go on to other code
    // CHECK: :[[@LINE-4]]:29: note: this loop's trip count varies between lanes
    // CHECK: :[[@LINE+4]]:3: note: the lanes that skip the call go on here
    // CHECK: :[[@LINE-4]]:10: note: take the mask before the branch
    acc += v;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x * 8 + threadIdx.y] = acc;
}

// Template kernels, judged as written with their instantiations' launches
// (llm.c's matmul_backward_bias_kernel9<OutFloat, UseAuxBuffer>): both
// instantiations launched with z 24 or 32, silent; one of them with z = 2,
// reported.
template <bool Aux> __global__ void z_template(float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = Aux ? threadIdx.x : threadIdx.y;
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    acc += v;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x * 8 + threadIdx.y] = acc;
}

template <bool Aux> __global__ void z_template_small(float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = Aux ? threadIdx.x : threadIdx.y;
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    // CHECK: :[[@LINE-1]]:10: error: '__shfl_down_sync' expects the full mask, but the lanes of a warp can leave the loop on 'r < blockDim.z' after different numbers of iterations, and those that leave first go on to other code
    // CHECK: :[[@LINE-4]]:29: note: this loop's trip count varies between lanes
    // CHECK: :[[@LINE+4]]:3: note: the lanes that skip the call go on here
    // CHECK: :[[@LINE-4]]:10: note: take the mask before the branch
    acc += v;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x * 8 + threadIdx.y] = acc;
}

void run_lane_loops(float *out, int oc, bool big) {
  z_literal<<<oc / 8, dim3(4, 8, 24)>>>(out);
  const int block_size = big ? 1024 : 768;
  z_choice<<<oc / 8, dim3(4, 8, (unsigned)block_size / 32)>>>(out);
  const int small = big ? 64 : 32;
  dim3 block = {4, 8, (unsigned)small / 32};
  z_choice_small<<<oc / 8, block>>>(out);
  z_template<true><<<oc / 8, dim3(4, 8, (unsigned)block_size / 32)>>>(out);
  z_template<false><<<oc / 8, dim3(4, 8, (unsigned)block_size / 32)>>>(out);
  z_template_small<true><<<oc / 8, dim3(4, 8, (unsigned)block_size / 32)>>>(out);
  z_template_small<false><<<oc / 8, dim3(4, 8, 2)>>>(out);
}
