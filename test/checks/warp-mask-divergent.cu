// RUN: not %warplint --checks='-*,warp-mask-divergent' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,warp-mask-divergent' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: not %warplint --format=json --checks='-*,warp-mask-divergent' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL 0xffffffff

// ---- positives

__global__ void half_warp_shuffle(float *a) {
  int lane = threadIdx.x % 32;
  float v = a[threadIdx.x];
  if (lane < 16)
    v = __shfl_down_sync(0xffffffff, v, 8);
  // CHECK: :[[@LINE-1]]:9: error: '__shfl_down_sync' expects the full mask, but only lanes 0-15 of warp 0 reach it (lanes 16-31 do not): every lane named in the mask must execute the call, otherwise it is undefined behaviour on sm_80 (the warp can hang or read garbage) (Volta tuning guide 1.4.1.2) [warp-mask-divergent]
  // CHECK: :[[@LINE-3]]:7: note: only some lanes pass this condition
  // CHECK: :[[@LINE+3]]:3: note: the lanes that skip the call go on here
  // CHECK: :[[@LINE-4]]:9: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its result conditionally; __activemask() only says which lanes happen to be converged, it is not a synchronisation point
  // PASCAL: :[[@LINE-5]]:9: warning: '__shfl_down_sync' expects the full mask, {{.*}} otherwise the result is undefined (on sm_60 the missing lanes' values are garbage)
  a[threadIdx.x] = v;
}

__global__ void votes_and_syncwarp(int *out) {
  if (threadIdx.x < 16) {
    unsigned m = __ballot_sync(FULL, out[threadIdx.x] > 0);
    // CHECK: :[[@LINE-1]]:18: error: '__ballot_sync' expects the full mask, but only lanes 0-15 of warp 0 reach it (lanes 16-31 do not)
    // CHECK: :[[@LINE-3]]:7: note: only some lanes pass this condition
    // CHECK: :[[@LINE+9]]:3: note: the lanes that skip the call go on here
    // CHECK: :[[@LINE-4]]:18: note: take the mask before the branch
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: error: '__syncwarp' expects the full mask, but only lanes 0-15 of warp 0 reach it
    // CHECK: :[[@LINE-8]]:7: note: only some lanes pass this condition
    // CHECK: :[[@LINE+4]]:3: note: the lanes that skip the call go on here
    // CHECK: :[[@LINE-4]]:5: note: take the mask before the branch
    out[threadIdx.x] = __popc(m);
  }
  out[blockDim.x + threadIdx.x] = 0;
}

// A helper with a full-mask reduction, called by the odd lanes only.
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(FULL, v, o);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down_sync' expects the full mask, but only the 16 odd lanes of warp 0 reach it (the 16 even lanes do not)
  // CHECK: :[[@LINE+7]]:7: note: only some lanes pass this condition
  // CHECK: :[[@LINE+8]]:3: note: the lanes that skip the call go on here
  // CHECK: :[[@LINE+6]]:12: note: reached through this call
  // CHECK: :[[@LINE-5]]:10: note: take the mask before the branch
  return v;
}
__global__ void odd_lanes(float *a) {
  if (threadIdx.x % 2)
    a[0] = warp_sum(a[threadIdx.x]);
  a[threadIdx.x] += 1.0f;
}

// A tile collective needs its whole tile.
__global__ void tile(float *a) {
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  float v = a[threadIdx.x];
  if (t.thread_rank() < 8)
    v = t.shfl_down(v, 1);
  // CHECK: :[[@LINE-1]]:9: error: 't.shfl_down' expects the whole tile of 16 lanes, but only lanes 0-7, 16-23 of warp 0 reach it (lanes 8-15, 24-31 do not)
  // CHECK: :[[@LINE-3]]:7: note: only some lanes pass this condition
  // CHECK: :[[@LINE+2]]:3: note: the lanes that skip the call go on here
  // CHECK: :[[@LINE-4]]:9: note: take the mask before the branch
  if (threadIdx.x % 32 < 16)
    v += t.shfl_down(v, 2); // fine: the first tile of each warp, whole
  a[threadIdx.x] = v;
}

// A helper whose guard reads its lane parameter: each call passes
// threadIdx.x % 32, so lanes 16-31 skip the shuffle inside it and go on
// to the next full-mask call in the kernel.
__device__ float upper_half_sum(float v, unsigned lane) {
  if (lane < 16)
    v += __shfl_down_sync(FULL, v, 16);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down_sync' expects the full mask, but only lanes 0-15 of warp 0 reach it (lanes 16-31 do not)
  // CHECK: :[[@LINE-3]]:7: note: only some lanes pass this condition
  // CHECK: :[[@LINE+8]]:3: note: the lanes that skip the call go on here
  // CHECK: :[[@LINE+6]]:13: note: reached through this call
  // CHECK: :[[@LINE-5]]:10: note: take the mask before the branch
  // PASCAL: :[[@LINE-6]]:10: warning: '__shfl_down_sync' expects the full mask, but only lanes 0-15 of warp 0 reach it
  return v;
}
__global__ void helper_guard(float *a) {
  float r = upper_half_sum(a[threadIdx.x], threadIdx.x % 32);
  r = __shfl_sync(FULL, r, 0);
  a[threadIdx.x] = r;
}

// ---- negatives

// The same helper shape whose guard every lane passes (lane < 32), and the
// first helper called where the lanes that skip can only exit.
__device__ float all_lanes_sum(float v, unsigned lane) {
  if (lane < 32)
    v += __shfl_down_sync(FULL, v, 16);
  return v;
}
__global__ void helper_guard_whole(float *a) {
  float r = all_lanes_sum(a[threadIdx.x], threadIdx.x % 32);
  r = __shfl_sync(FULL, r, 0);
  a[threadIdx.x] = r;
}

__global__ void fine(float *a, int n) {
  int lane = threadIdx.x % 32;
  float v = a[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) // the whole warp
    v += __shfl_down_sync(FULL, v, o);
  if (threadIdx.x < 64)           // whole warps
    v = __shfl_xor_sync(-1, v, 1);
  if (threadIdx.x / 32 == 1)      // a warp id
    v = __shfl_xor_sync(~0u, v, 2);
  unsigned m = __ballot_sync(FULL, lane < 16);
  if (lane < 16)                  // the mask names exactly the lanes
    v = __shfl_down_sync(m, v, 8);
  v = __shfl_down_sync(__activemask(), v, 1); // not a full mask
  a[threadIdx.x] = v;
}

// The lanes that skip the call can only exit: "all non-exited threads named
// in the mask" are there.
__global__ void after_return(float *a) {
  if (threadIdx.x % 32 >= 8)
    return;
  a[threadIdx.x] = __shfl_sync(FULL, a[0], 0);
}
__global__ void last_if(int *out) {
  if (threadIdx.x < 16) {
    unsigned m = __ballot_sync(FULL, out[threadIdx.x] > 0);
    __syncwarp();
    out[threadIdx.x] = __popc(m);
  }
}
// (Data-dependent conditions and run-time bounds: warp-mask-divergent-data.cu.)
void launch_helper_guards(float *a) {
  helper_guard<<<1, 64>>>(a);
  helper_guard_whole<<<1, 64>>>(a);
}

// The witness's lanes are metrics of the finding (JSON and SARIF): lane 0
// makes the call, lane 16 does not.
// JSON: "witness_warp": 0.0,
// JSON-NEXT: "witness_lane_reaches": 0.0,
// JSON-NEXT: "witness_lane_misses": 16.0
