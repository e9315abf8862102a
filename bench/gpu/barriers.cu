// Barrier placements for compute-sanitizer's synccheck: which of them does the
// hardware (and NVIDIA's own checker) treat as a barrier that only part of the
// block reaches? Run one kernel per process: ./barriers <name>.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

__global__ void divergent_if(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 100)
    __syncthreads();
  a[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void kernel_early_return(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x ^ 1];
}

__device__ void helper_early_return(float *a, float *s) {
  if (threadIdx.x >= 100)
    return;
  s[threadIdx.x] = a[threadIdx.x];
}
__global__ void device_fn_return_then_barrier_in_helper(float *a) {
  __shared__ float s[256];
  helper_early_return(a, s);
  __syncthreads();
  a[threadIdx.x] = s[threadIdx.x];
}

__device__ void helper_return_before_barrier(float *a, float *s) {
  if (threadIdx.x >= 100)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
}
__global__ void device_fn_return_before_barrier(float *a) {
  __shared__ float s[256];
  helper_return_before_barrier(a, s);
  a[threadIdx.x] = s[threadIdx.x];
}

__global__ void thread_trip_count(float *a) {
  __shared__ float s[256];
  for (int k = 0; k < (int)(threadIdx.x % 4); ++k) {
    s[threadIdx.x] = a[threadIdx.x] + k;
    __syncthreads();
  }
  a[threadIdx.x] = s[threadIdx.x];
}

__global__ void warp_uniform_branch(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x / 32 == 0)
    __syncthreads();
  a[threadIdx.x] = s[threadIdx.x];
}

// One barrier in each arm of an if/else that splits the block by warp
// (ggml's flash-attention combine step, blockDim (32, 4)): every thread
// reaches a barrier, but not the same one.
__global__ void warp_split_both_arms(float *a, int np) {
  __shared__ float s[128];
  int t = threadIdx.y * 32 + threadIdx.x;
  s[t] = a[t];
  if (np > 1 && threadIdx.y % np == 0) {
    float v = s[t] + 1.0f;
    __syncthreads();
    a[t] = v + s[(t + 32) % 128];
  } else if (np > 1) {
    __syncthreads();
    a[t] = s[t];
  }
}

__global__ void tree_reduction(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    a[blockIdx.x] = s[0];
}

__global__ void cg_sync_divergent(float *a) {
  __shared__ float s[256];
  cg::thread_block b = cg::this_thread_block();
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x % 2)
    b.sync();
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// The barrier inside the kernel's last `if`: threads that skip it have nothing
// left to run and exit, as after an early return.
__global__ void kernel_tail_if(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
  }
}

// The same, but the threads that skip the barrier still have work after it.
__global__ void kernel_if_then_work(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
  }
  a[i + 512] = 1.0f;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  float *a;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMemset(a, 0, 1024 * sizeof(float));
  const char *k = argv[1];
  if (!strcmp(k, "divergent_if"))
    divergent_if<<<1, 256>>>(a);
  else if (!strcmp(k, "kernel_early_return"))
    kernel_early_return<<<2, 256>>>(a, 300);
  else if (!strcmp(k, "kernel_tail_if"))
    kernel_tail_if<<<2, 256>>>(a, 300);
  else if (!strcmp(k, "kernel_if_then_work"))
    kernel_if_then_work<<<2, 256>>>(a, 300);
  else if (!strcmp(k, "device_fn_return_then_barrier_in_helper"))
    device_fn_return_then_barrier_in_helper<<<1, 256>>>(a);
  else if (!strcmp(k, "device_fn_return_before_barrier"))
    device_fn_return_before_barrier<<<1, 256>>>(a);
  else if (!strcmp(k, "thread_trip_count"))
    thread_trip_count<<<1, 256>>>(a);
  else if (!strcmp(k, "warp_uniform_branch"))
    warp_uniform_branch<<<1, 256>>>(a);
  else if (!strcmp(k, "warp_split_both_arms"))
    warp_split_both_arms<<<4, dim3(32, 4)>>>(a, 2);
  else if (!strcmp(k, "tree_reduction"))
    tree_reduction<<<1, 256>>>(a);
  else if (!strcmp(k, "cg_sync_divergent"))
    cg_sync_divergent<<<1, 256>>>(a);
  else
    return 2;
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", k, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
