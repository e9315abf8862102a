// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_50 %s -- -std=c++17 | FileCheck %s --check-prefix=MAXWELL
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- the lanes a guard lets through

// A 6-word stride: lanes l and l + 16 are 96 words apart, in the same bank.
// With all 32 lanes that is 2-way; with lanes 0-15 only, conflict-free.
__global__ void six_words_all(float *out) {
  __shared__ float s[32 * 6];
  s[threadIdx.x * 6] = out[threadIdx.x];
// CHECK: :[[@LINE-1]]:3: note: 2-way bank conflict on 's[threadIdx.x * 6]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 24 bytes apart), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 5% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void six_words_half(float *out) {
  __shared__ float s[32 * 6];
  int tid = threadIdx.x;
  if (tid < 16)
    s[tid * 6] = out[tid];
  out[tid] = s[tid];
}

// An early return: the same 16 lanes.
__global__ void six_words_return(float *out) {
  __shared__ float s[32 * 6];
  int tid = threadIdx.x;
  if (tid >= 16)
    return;
  s[tid * 6] = out[tid];
}

// A helper reached only under the caller's guard, with its own guard on a
// bound its caller passes: 8 lanes, 8 words apart, 2-way (all 32 lanes
// would be 8-way).
__device__ void put_lanes(float *s, int lane, int d) {
  if (lane < d)
    s[lane * 8] = 1.0f;
// CHECK: :[[@LINE-1]]:5: note: 2-way bank conflict on 's[lane * 8]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 32 bytes apart, over the 8 active lanes 0-7), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 6% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
// MAXWELL: :[[@LINE-2]]:5: note: 2-way bank conflict on 's[lane * 8]' on sm_50: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 32 bytes apart, over the 8 active lanes 0-7)
// JSON: "active_lanes": 8
// CHECK: :[[@LINE+6]]:5: note: 'put_lanes' called from 'helper_guarded'
}
__global__ void helper_guarded(float *out) {
  __shared__ float s[256];
  int lane = threadIdx.x % 32;
  if (threadIdx.x < 32)
    put_lanes(s, lane, 8);
  out[threadIdx.x] = s[lane];
}

// Lanes 0-7 and 16-23 (thread_rank() < 8 in tiles of 16): 4 words apart,
// 2-way (all 32 lanes: 4-way).
__global__ void tiles_of_16(float *out) {
  __shared__ float s[32 * 4];
  cg::thread_block_tile<16> tile =
      cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.thread_rank() < 8)
    s[threadIdx.x * 4] = 1.0f;
// CHECK: :[[@LINE-1]]:5: note: 2-way bank conflict on 's[threadIdx.x * 4]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (its lanes' addresses are not evenly spaced, over the 16 active lanes 0-7, 16-23), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 8% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  out[threadIdx.x] = s[threadIdx.x];
}

// A helper with a shared array passed in and the lane index in a lambda.
__device__ void store_strided(float *tile, int i) { tile[i * 2] = 0.0f; }
// CHECK: :[[@LINE-1]]:53: note: 2-way bank conflict on 'tile[i * 2]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 8 bytes apart), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 9% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
// CHECK: :[[@LINE+5]]:25: note: 'store_strided' called from 'lambda' with tile = s, i = k
// CHECK: :[[@LINE+5]]:3: note: 'lambda' called from 'through_lambda' with k = lane
__global__ void through_lambda(float *out) {
  __shared__ float s[64];
  int lane = threadIdx.x % 32;
  auto f = [&](int k) { store_strided(s, k); };
  f(lane);
  out[threadIdx.x] = s[lane];
}

// ---- look-alikes that keep all 32 lanes

// A tail guard with an unknown bound: all 32 lanes, 2-way as without it.
__global__ void tail_guard(float *out, int n) {
  __shared__ float s[32 * 6];
  int tid = threadIdx.x;
  if (tid < n)
    s[tid * 6] = 1.0f;
// CHECK: :[[@LINE-1]]:5: note: 2-way bank conflict on 's[tid * 6]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 24 bytes apart), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 9% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  out[tid] = s[tid];
}

// A warp-uniform branch (the warp id): whole warps, 2-way.
__global__ void warp_uniform(float *out) {
  __shared__ float s[64 * 6];
  if (threadIdx.x / 32 == 1)
    s[threadIdx.x * 6] = 1.0f;
// CHECK: :[[@LINE-1]]:5: note: 2-way bank conflict on 's[threadIdx.x * 6]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 24 bytes apart), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 9% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  out[threadIdx.x] = s[threadIdx.x];
}

// A helper called with a conflict-free pattern from one kernel and a 2-way
// one from another: the worst is reported, with its chain.
__device__ void put(float *s, int i) { s[i] = 1.0f; }
// CHECK: :[[@LINE-1]]:40: note: 2-way bank conflict on 's[i]' on sm_80: a warp's store hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 8 bytes apart), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 9% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
// CHECK: :[[@LINE+8]]:3: note: 'put' called from 'calls_even' with i = threadIdx.x * 2
__global__ void calls_unit(float *out) {
  __shared__ float s[64];
  put(s, threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void calls_even(float *out) {
  __shared__ float s[64];
  put(s, threadIdx.x * 2);
  out[threadIdx.x] = s[threadIdx.x];
}

// A guard on the counter of a loop that counts with constants: `tx <= m`,
// m = 0 to 15, lets lanes 0-15 through in the last iteration and lanes
// 16-31 in none. Rodinia's Needleman-Wunsch anti-diagonal: 16 words between
// lanes, 8-way over 16 lanes (16-way if all 32 ran it).
__global__ void anti_diagonal(int *out) {
  __shared__ int t[17][17];
  int tx = threadIdx.x;
  for (int m = 0; m < 16; m++) {
    if (tx <= m)
      t[m - tx + 1][tx + 1] = m;
// CHECK: :[[@LINE-1]]:7: warning: 8-way bank conflict on 't[m - tx + 1][tx + 1]' on sm_80: a warp's store hits 8 different 4-byte words in one of the 32 banks (consecutive lanes are 64 bytes apart, over the 16 active lanes 0-15), so it takes 8 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 21% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
    __syncthreads();
  }
  // Counting down from 14: lanes 0-14.
  for (int m = 14; m >= 0; m--)
    if (tx <= m)
      t[16 - tx][tx + 2 + m] = m;
// CHECK: :[[@LINE-1]]:7: warning: 8-way bank conflict on 't[16 - tx][tx + 2 + m]' on sm_80: a warp's store hits 8 different 4-byte words in one of the 32 banks (consecutive lanes are 64 bytes apart, over the 15 active lanes 0-14)
  out[tx] = t[1][tx % 16];
}
// Two lanes at most (m < 2): 16 words apart they are in different banks.
__global__ void anti_diagonal_short(int *out) {
  __shared__ int t[17][17];
  int tx = threadIdx.x;
  for (int m = 0; m < 2; m++)
    if (tx <= m)
      t[m - tx + 1][tx + 1] = m;
  out[tx] = t[1][tx % 16];
}
// A bound the loop does not fix (n), or a counter the body writes too: the
// guard may let every lane through.
__global__ void anti_diagonal_open(int *out, int n) {
  __shared__ int t[17][17];
  int tx = threadIdx.x;
  for (int m = 0; m < n; m++)
    if (tx <= m)
      t[m - tx + 1][tx + 1] = m;
// CHECK: :[[@LINE-1]]:7: warning: 16-way bank conflict on 't[m - tx + 1][tx + 1]' on sm_80: a warp's store hits 16 different 4-byte words in one of the 32 banks (consecutive lanes are 64 bytes apart), so
  for (int m = 0; m < 16; m++) {
    if (tx <= m)
      t[m - tx + 1][tx + 2] = m;
// CHECK: :[[@LINE-1]]:7: warning: 16-way bank conflict on 't[m - tx + 1][tx + 2]' on sm_80: a warp's store hits 16 different 4-byte words in one of the 32 banks (consecutive lanes are 64 bytes apart), so
    m += out[m];
  }
  out[tx] = t[1][tx % 16];
}

int main() { return 0; }
