// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_50 %s -- -std=c++17 | FileCheck %s --check-prefix=MAXWELL --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-shared-bank-conflict' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>

// The work-efficient (Blelloch) scan's up-sweep: lanes are 2 * offset words
// apart, so each doubling of offset doubles the conflict, from 2-way to
// 32-way. The bound n is unknown: the range goes as far as a warp can see.
__global__ void blelloch_upsweep(float *g, int n) {
  extern __shared__ float temp[];
  int tid = threadIdx.x;
  temp[tid] = g[tid];
  for (int offset = 1; offset < n; offset *= 2) {
    __syncthreads();
    int ai = offset * (2 * tid + 1) - 1;
    int bi = offset * (2 * tid + 2) - 1;
    if (bi < n)
      temp[bi] += temp[ai];
    // CHECK: :[[@LINE-1]]:7: warning: 32-way bank conflict on 'temp[bi]' on sm_80 at worst, 2-way to 32-way over the loop (offset = 1, 2, 4, ... while offset < n): a warp's load and store hits up to 32 different 4-byte words in one of the 32 banks (consecutive lanes are 8 to 128 bytes apart), so it takes up to 32 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 72% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each, taking each loop of unknown trip count as 16 rounds) [memory-shared-bank-conflict]
    // CHECK: :[[@LINE-10]]:27: note: pad the index into 'temp' (one word per 32 words: i + i / 32) or permute (swizzle) it so that the lanes of a warp fall in different banks at every step of the loop
    // CHECK: :[[@LINE-3]]:19: warning: 32-way bank conflict on 'temp[ai]' on sm_80 at worst, 2-way to 32-way over the loop (offset = 1, 2, 4, ... while offset < n): a warp's load hits up to 32 different 4-byte words in one of the 32 banks (consecutive lanes are 8 to 128 bytes apart)
    // CHECK: note: pad the index into 'temp'
    // MAXWELL: :[[@LINE-5]]:7: warning: 32-way bank conflict on 'temp[bi]' on sm_50 at worst, 2-way to 32-way over the loop
    // MAXWELL: :[[@LINE-6]]:19: warning: 32-way bank conflict on 'temp[ai]' on sm_50 at worst
    // JSON: "bank_conflict_ways": 32
    // JSON: "bank_conflict_ways_least": 2
  }
  __syncthreads();
  g[tid] = temp[tid];
}

// GPU Gems 3's spelling: the loop counts d down, offset is a separate local
// doubled at the end of the body; the loop's test says nothing of offset.
__global__ void gems_upsweep(float *g, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int offset = 1;
  // The extern array sits at a 16-byte boundary: the two stores are one
  // conflict-free st.shared.v2.f32 (test/ir/memory-optimised.cu).
  temp[2 * thid] = g[2 * thid];
  temp[2 * thid + 1] = g[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
      // CHECK: :[[@LINE-1]]:7: warning: 32-way bank conflict on 'temp[bi]' on sm_80 at worst, 2-way to 32-way over the loop (offset = 1, 2, 4, ...): a warp's load and store hits up to 32 different 4-byte words in one of the 32 banks (consecutive lanes are 8 to 128 bytes apart)
      // CHECK: note: pad the index into 'temp'
      // CHECK: :[[@LINE-3]]:19: warning: 32-way bank conflict on 'temp[ai]' on sm_80 at worst, 2-way to 32-way over the loop (offset = 1, 2, 4, ...)
      // CHECK: note: pad the index into 'temp'
      // MAXWELL: :[[@LINE-5]]:7: warning: 32-way
      // MAXWELL: :[[@LINE-6]]:19: warning: 32-way
    }
    offset *= 2;
  }
  __syncthreads();
  g[thid] = temp[thid];
}

// A shift with a constant bound: the values are all known, and the first
// one is conflict-free.
__global__ void shifted(float *out) {
  __shared__ float sh[32 * 8];
  float acc = 0.0f;
  for (int s = 1; s < 8; s <<= 1)
    acc += sh[s * threadIdx.x];
  // CHECK: :[[@LINE-1]]:12: warning: 4-way bank conflict on 'sh[s * threadIdx.x]' on sm_80 at worst, conflict-free to 4-way over the loop (s = 1, 2, 4 while s < 8): a warp's load hits up to 4 different 4-byte words in one of the 32 banks (consecutive lanes are 4 to 16 bytes apart), so it takes up to 4 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts')
  // CHECK: note: pad the index into 'sh'
  // MAXWELL: :[[@LINE-3]]:12: warning: 4-way
  out[threadIdx.x] = acc;
}

// --- Fine: no finding below this line. ---

// The stride does not change with the multiplied local (a uniform offset),
// an odd multiplier keeps every stride odd, and sequential addressing.
__global__ void loops_fine(float *out, int n) {
  __shared__ float sh[1024];
  unsigned tid = threadIdx.x;
  float acc = 0.0f;
  for (int s = 1; s < n; s *= 2)
    acc += sh[tid + s];
  for (int s = 1; s < n; s *= 3)
    acc += sh[s * tid];
  for (int s = 1; s < 27; s *= 3)
    acc += sh[s * tid];
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  out[tid] = acc;
}

// A local multiplied in only some lanes is not a value of the loop.
__global__ void divergent_step(float *out, int n) {
  __shared__ float sh[1024];
  int s = 1;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    acc += sh[s * threadIdx.x];
    if (threadIdx.x & 1)
      s *= 2;
  }
  out[threadIdx.x] = acc;
}

// The same up-sweep run by a half warp (`t < 16` around the loop): the
// strides are judged on the 16 lanes that run it, at every value.
__global__ void half_warp_scan(float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (t < 16)
    for (int offset = 1; offset < 64; offset *= 2)
      s[offset * (2 * t + 1) - 1] += 1.0f;
  // CHECK: :[[@LINE-1]]:7: warning: 16-way bank conflict on 's[offset * (2 * t + 1) - 1]' on sm_80 at worst, conflict-free to 16-way over the loop (offset = 1, 2, 4, ..., 32 while offset < 64): a warp's load and store hits up to 16 different 4-byte words in one of the 32 banks (consecutive lanes are 8 to 256 bytes apart, over the 16 active lanes 0-15), so it takes up to 16 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 76% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each, taking each loop of unknown trip count as 16 rounds) [memory-shared-bank-conflict]
  // MAXWELL: :[[@LINE-2]]:7: warning: 16-way bank conflict on 's[offset * (2 * t + 1) - 1]' on sm_50 at worst, conflict-free to 16-way over the loop
  // JSON: "active_lanes": 16
  out[t] = s[t];
}
