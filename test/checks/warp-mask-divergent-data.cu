// RUN: not %warplint --checks='-*,warp-mask-divergent' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// Full-mask collectives under conditions that depend on each thread's data
// or a run-time bound: reported where the lanes that skip the call go on to
// other code, silent where they can only exit.
#define FULL 0xffffffff

// ---- positives

// The skipping lanes go on to another full-mask call: on an H100 the warp
// can hang or read garbage.
__global__ void data_then_other_call(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (v > 0.0f)
    v += __shfl_xor_sync(FULL, v, 1);
  v += __shfl_xor_sync(FULL, v, 2);
  out[threadIdx.x] = v;
}

// The skipping lanes run the else side.
__global__ void data_else(const int *flags, float *out) {
  float v = out[threadIdx.x];
  if (flags[threadIdx.x])
    v = __shfl_down_sync(FULL, v, 1);
  else
    v = 0.0f;
  out[threadIdx.x] = v;
}

// A tail guard with work after it.
__global__ void tail_then_work(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    v = out[i];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(FULL, v, o);
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x] = v;
}

// A loop whose trip count is the thread's own.
__global__ void per_lane_trips(const int *count, float *out) {
  float v = 0.0f;
  for (int k = 0; k < count[threadIdx.x]; ++k)
    v += __shfl_xor_sync(FULL, v + k, 1);
  out[threadIdx.x] = v;
}

// __syncwarp() in a data-dependent branch, a barrier after it.
__global__ void syncwarp_then_barrier(int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (out[threadIdx.x] & 1)
    __syncwarp();
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// ---- negatives

// The skipping lanes can only exit: all non-exited lanes are there.
__global__ void tail_then_exit(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = out[i];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(FULL, v, o);
    if (threadIdx.x % 32 == 0)
      out[blockIdx.x] = v;
  }
}
__global__ void early_return(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = out[i];
  v += __shfl_xor_sync(FULL, v, 1);
  out[i] = v;
}
__global__ void data_else_return(const int *flags, float *out) {
  float v = out[threadIdx.x];
  if (flags[threadIdx.x]) {
    v = __shfl_down_sync(FULL, v, 1);
    out[threadIdx.x] = v;
  } else {
    return;
  }
}

// The mask is taken before the branch.
__global__ void ballot_mask(const float *in, float *out) {
  float v = in[threadIdx.x];
  unsigned m = __ballot_sync(FULL, v > 0.0f);
  if (v > 0.0f)
    v += __shfl_xor_sync(m, v, 1);
  out[threadIdx.x] = v;
}

// A condition that is the same in every lane of a warp.
__global__ void warp_uniform(const float *in, float *out, const int *flags) {
  float v = in[threadIdx.x];
  if (flags[blockIdx.x])
    v += __shfl_xor_sync(FULL, v, 1);
  if (__any_sync(FULL, v > 0.0f))
    v += __shfl_xor_sync(FULL, v, 2);
  out[threadIdx.x] = v;
}

// The whole warp calls; the result is used conditionally.
__global__ void whole_warp(const float *in, float *out) {
  float v = in[threadIdx.x];
  float w = __shfl_xor_sync(FULL, v, 1);
  if (v > 0.0f)
    v += w;
  out[threadIdx.x] = v;
}

// A loop whose condition is a warp vote: the lanes leave together.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void vote_loop(float *out, int n) {
  auto tile32 = cg::tiled_partition<32>(cg::this_thread_block());
  float v = 0.0f;
  for (int i = tile32.thread_rank(); tile32.any(i < n); i += 32)
    v += tile32.shfl(v + i, 0);
  for (int i = threadIdx.x; __any_sync(FULL, i < n); i += 32)
    v += __shfl_sync(FULL, v + i, 0);
  out[threadIdx.x] = v;
}

// ---- expected findings (lines above)
// CHECK: {{.*}}warp-mask-divergent-data.cu:14:10: error: '__shfl_xor_sync' expects the full mask, but only the lanes where 'v > 0.0f' holds reach it (the condition depends on each thread's data or a run-time bound), and the others go on to other code: every non-exited lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
// CHECK: {{.*}}warp-mask-divergent-data.cu:13:7: note: this condition can split the warp
// CHECK: {{.*}}warp-mask-divergent-data.cu:15:3: note: the lanes that skip the call go on here
// CHECK: {{.*}}warp-mask-divergent-data.cu:14:10: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally
// CHECK: {{.*}}warp-mask-divergent-data.cu:23:9: error: '__shfl_down_sync' expects the full mask, but only the lanes where 'flags[threadIdx.x]' holds reach it (the condition depends on each thread's data or a run-time bound), and the others go on to other code: every non-exited lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
// CHECK: {{.*}}warp-mask-divergent-data.cu:22:7: note: this condition can split the warp
// CHECK: {{.*}}warp-mask-divergent-data.cu:25:5: note: the lanes that skip the call go on here
// CHECK: {{.*}}warp-mask-divergent-data.cu:23:9: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally
// CHECK: {{.*}}warp-mask-divergent-data.cu:36:12: error: '__shfl_down_sync' expects the full mask, but only the lanes where 'i < n' holds reach it (the condition depends on each thread's data or a run-time bound), and the others go on to other code: every non-exited lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
// CHECK: {{.*}}warp-mask-divergent-data.cu:33:7: note: this condition can split the warp
// CHECK: {{.*}}warp-mask-divergent-data.cu:38:3: note: the lanes that skip the call go on here
// CHECK: {{.*}}warp-mask-divergent-data.cu:36:12: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally
// CHECK: {{.*}}warp-mask-divergent-data.cu:47:10: error: '__shfl_xor_sync' expects the full mask, but the lanes of a warp can leave the loop on 'k < count[threadIdx.x]' after different numbers of iterations, and those that leave first go on to other code: every non-exited lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
// CHECK: {{.*}}warp-mask-divergent-data.cu:46:19: note: this loop's trip count varies between lanes
// CHECK: {{.*}}warp-mask-divergent-data.cu:48:3: note: the lanes that skip the call go on here
// CHECK: {{.*}}warp-mask-divergent-data.cu:47:10: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally
// CHECK: {{.*}}warp-mask-divergent-data.cu:56:5: error: '__syncwarp' expects the full mask, but only the lanes where 'out[threadIdx.x] & 1' holds reach it (the condition depends on each thread's data or a run-time bound), and the others go on to other code: every non-exited lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
// CHECK: {{.*}}warp-mask-divergent-data.cu:55:7: note: this condition can split the warp
// CHECK: {{.*}}warp-mask-divergent-data.cu:57:3: note: the lanes that skip the call go on here
// CHECK: {{.*}}warp-mask-divergent-data.cu:56:5: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally
