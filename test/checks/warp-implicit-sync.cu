// RUN: not %warplint --checks='-*,warp-implicit-sync' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,warp-implicit-sync' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: not %warplint --format=json --checks='-*,warp-implicit-sync' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- positives

// Harris' unrolled last warp, in a helper called with the shared array.
template <unsigned blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  // CHECK: :[[@LINE-1]]:38: error: lanes 0-15 of warp 0 read 'sdata[tid + 16]', which lanes 16-31 of the same warp write at line [[@LINE-2]], with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
  // CHECK: :[[@LINE-3]]:24: note: written here
  // CHECK: :[[@LINE+32]]:17: note: through this call
  // CHECK: :[[@LINE-4]]:38: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
  // PASCAL: :[[@LINE-5]]:38: warning: lanes 0-15 of warp 0 read 'sdata[tid + 16]', {{.*}} which sm_60 happens to do, but sm_70 and later do not guarantee
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  // CHECK: :[[@LINE-1]]:38: error: lanes 0-23 of warp 0 read 'sdata[tid + 8]', which lanes 8-31 of the same warp write at line {{[0-9]+}}, with no __syncwarp() between: this assumes t{{.*}}
  // CHECK: :[[@LINE-8]]:24: note: written here
  // CHECK: :[[@LINE+26]]:17: note: through this call
  // CHECK: :[[@LINE-4]]:38: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::r{{.*}}
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  // CHECK: :[[@LINE-1]]:37: error: lanes 0-27 of warp 0 read 'sdata[tid + 4]', which lanes 4-31 of the same warp write at line {{[0-9]+}}, with no __syncwarp() between: this assumes t{{.*}}
  // CHECK: :[[@LINE-7]]:24: note: written here
  // CHECK: :[[@LINE+21]]:17: note: through this call
  // CHECK: :[[@LINE-4]]:37: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::r{{.*}}
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  // CHECK: :[[@LINE-1]]:37: error: lanes 0-29 of warp 0 read 'sdata[tid + 2]', which lanes 2-31 of the same warp write at line {{[0-9]+}}, with no __syncwarp() between: this assumes t{{.*}}
  // CHECK: :[[@LINE-7]]:23: note: written here
  // CHECK: :[[@LINE+16]]:17: note: through this call
  // CHECK: :[[@LINE-4]]:37: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::r{{.*}}
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
  // CHECK: :[[@LINE-1]]:37: error: lanes 0-30 of warp 0 read 'sdata[tid + 1]', which lanes 1-31 of the same warp write at line {{[0-9]+}}, with no __syncwarp() between: this assumes t{{.*}}
  // CHECK: :[[@LINE-7]]:23: note: written here
  // CHECK: :[[@LINE+11]]:17: note: through this call
  // CHECK: :[[@LINE-4]]:37: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::r{{.*}}
}

template <unsigned blockSize>
__global__ void reduce6(const float *in, float *out) {
  __shared__ float sdata[blockSize];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockSize + tid];
  __syncthreads();
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
template __global__ void reduce6<256>(const float *, float *);

// The same steps written inline through a volatile pointer.
__global__ void inline_steps(float *out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = s;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    // CHECK: :[[@LINE-1]]:16: error: lanes 0-15 of warp 0 read 'vs[tid + 16]', which lanes 16-31 of the same warp write at line [[@LINE-2]]
    // CHECK: :[[@LINE-3]]:5: note: written here
    // CHECK: :[[@LINE-3]]:16: note: synchronise the lanes
    vs[tid] += vs[tid + 8];
    // CHECK: :[[@LINE-1]]:16: error: lanes 0-23 of warp 0 read 'vs[tid + 8]', which lanes 8-31 of the same warp write at line {{[0-9]+}}, with no __syncwarp() between: this assumes the {{.*}}
    // CHECK: :[[@LINE-6]]:5: note: written here
    // CHECK: :[[@LINE-3]]:16: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::r{{.*}}
  }
  if (tid == 0)
    out[0] = s[0];
}

// A neighbour exchange with no barrier at all.
__global__ void neighbours(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK: :[[@LINE-1]]:22: error: lanes 0-30 of warp 0 read 's[threadIdx.x + 1]', which lanes 1-31 of the same warp write at line [[@LINE-2]]
  // CHECK: :[[@LINE-3]]:3: note: written here
  // CHECK: :[[@LINE-3]]:22: note: synchronise the lanes
}

// The lane from a helper of two statements: the tracer takes its value
// from the affine form the memory checks use.
__device__ unsigned lane_of() {
  unsigned l = threadIdx.x & 31;
  return l;
}
__global__ void helper_lane_tail(const float *in, float *out) {
  __shared__ float s[64];
  unsigned lane = lane_of();
  s[lane] = in[threadIdx.x];
  s[lane + 32] = 0;
  __syncthreads();
  if (threadIdx.x < 32) {
    volatile float *v = s;
    v[lane] += v[lane + 16];
    v[lane] += v[lane + 8];
    // CHECK: :[[@LINE-1]]:16: error: lanes 0-23 of warp 0 read 'v[lane + 8]', which lanes 8-31 of the same warp write at line [[@LINE-2]]
    // CHECK: :[[@LINE-3]]:5: note: written here
    // CHECK: :[[@LINE-3]]:16: note: synchronise the lanes
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The kernels name no __shared__ variable: the helpers they call do.
__device__ float *scratch() {
  __shared__ float buf[64];
  return buf;
}
__global__ void pairs_through_helper(float *out) {
  float *s = scratch();
  unsigned t = threadIdx.x;
  s[t] = out[t];
  out[t] = s[t ^ 1];
  // CHECK: :[[@LINE-1]]:12: error: lanes 0-31 of warp 0 read 's[t ^ 1]', which lanes 0-31 of the same warp write at line [[@LINE-2]], with no __syncwarp() between
  // CHECK: :[[@LINE-3]]:3: note: written here
  // CHECK: :[[@LINE-3]]:12: note: synchronise the lanes
}
__device__ float neighbour(float v) {
  __shared__ float ring[32];
  ring[threadIdx.x % 32] = v;
  return ring[(threadIdx.x + 1) % 32];
  // CHECK: :[[@LINE-1]]:10: error: lanes 0-31 of warp 0 read 'ring[(threadIdx.x + 1) % 32]', which lanes 0-31 of the same warp write at line [[@LINE-2]], with no __syncwarp() between
  // CHECK: :[[@LINE-3]]:3: note: written here
  // CHECK: :[[@LINE+4]]:22: note: through this call
  // CHECK: :[[@LINE-4]]:10: note: synchronise the lanes
}
__global__ void rotate_through_helper(float *out) {
  out[threadIdx.x] = neighbour(out[threadIdx.x]);
}

// ---- negatives

// __syncwarp() between every write and read.
__global__ void synced_steps(float *out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid] + s[tid + 32];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
    v += s[tid + 16];
    __syncwarp();
    s[tid] = v;
  }
}

// The tiled transpose: a barrier between the write and the read.
__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// Each lane reads back only what it wrote.
__global__ void own_element(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  s[threadIdx.x] *= 2.0f;
  out[threadIdx.x] = s[threadIdx.x];
}

// Shuffles instead of shared memory.
__global__ void shuffles(float *out) {
  float v = out[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}

// A helper that synchronises the block between the steps.
__device__ void stage(float *s) { __syncthreads(); }
__global__ void barrier_in_helper(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  stage(s);
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// One side of an if/else writes, the other reads.
__global__ void exclusive_sides(float *out, int mode) {
  __shared__ float s[256];
  if (mode)
    s[threadIdx.x] = 1.0f;
  else
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// A sticky error flag: thread 0 only ever sets it to constants and every
// read only tests it to leave. A reader sees it set now or after the next
// barrier, with the same outcome whichever order the lanes run in.
__device__ int step(int j);
__device__ void factor(int n, int *info) {
  __shared__ int s_info;
  if (threadIdx.x == 0)
    s_info = 0;
  __syncthreads();
  for (int j = 0; j < n; j += 64) {
    if (s_info) {
      *info = s_info;
      return;
    }
    if (threadIdx.x == 0 && step(j) != 0)
      s_info = 1;
    __syncthreads();
  }
}
__global__ void factor_entry(int n, int *info) { factor(n, info); }

// The same flag carrying a computed value that the lanes use: reported.
__device__ void factor_value(int n, int *info) {
  __shared__ int s_code;
  if (threadIdx.x == 0)
    s_code = 0;
  __syncthreads();
  for (int j = 0; j < n; j += 64) {
    info[threadIdx.x] += s_code;
    if (threadIdx.x == 0)
      s_code = step(j);
    // CHECK: :[[@LINE-1]]:7: error: lane 0 of warp 0 write 's_code', which lanes 1-31 of the same warp read at line [[@LINE-3]], with no __syncwarp() between the read and the write
    // CHECK: :[[@LINE-4]]:26: note: read here
    // CHECK: :[[@LINE+6]]:3: note: through this call
    // CHECK: :[[@LINE-4]]:7: note: synchronise the lanes between the read and the write
    __syncthreads();
  }
}
__global__ void factor_value_entry(int n, int *info) {
  factor_value(n, info);
}

// ---- a warp collective written in PTX orders the lanes like the intrinsic

// A library's own shuffle wrapper (FlashInfer's math::shfl_xor_sync): the
// butterfly between lane 0's read of smem[0] and the others' write is a
// shfl.sync every lane of the warp must reach.
__device__ __forceinline__ float asm_shfl_xor(float x, int m) {
  float y;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=f"(y)
               : "f"(x), "r"(m));
  return y;
}
__device__ __forceinline__ float asm_copy(float x, int) {
  float y;
  asm volatile("mov.b32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__global__ void rms_tail(const float *x, float *y, int d) {
  extern __shared__ float smem[];
  float s = 0.0f;
  for (int i = threadIdx.y * 32 + threadIdx.x; i < d; i += 32 * blockDim.y)
    s += x[i] * x[i];
  for (int o = 16; o > 0; o /= 2)
    s += asm_shfl_xor(s, o);
  smem[threadIdx.y] = s;
  __syncthreads();
  if (threadIdx.y == 0) {
    s = threadIdx.x < blockDim.y ? smem[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
      s += asm_shfl_xor(s, o);
    smem[0] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0)
    *y = smem[0];
}
// The look-alike: inline assembly that moves a register orders nothing.
__global__ void rms_tail_no_shuffle(const float *x, float *y, int d) {
  extern __shared__ float smem[];
  float s = 0.0f;
  for (int i = threadIdx.y * 32 + threadIdx.x; i < d; i += 32 * blockDim.y)
    s += x[i] * x[i];
  smem[threadIdx.y] = s;
  __syncthreads();
  if (threadIdx.y == 0) {
    s = threadIdx.x < blockDim.y ? smem[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
      s += asm_copy(s, o);
    smem[0] = s;
    // CHECK: :[[@LINE-1]]:5: error: lanes 1-31 of warp 0 write 'smem[0]', which lane 0 of the same warp read at line [[@LINE-4]], with no __syncwarp() between the read and the write: a lane can overwrite the value before the other has read it unless the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
    // CHECK: :[[@LINE-5]]:36: note: read here
    // CHECK: :[[@LINE-3]]:5: note: synchronise the lanes between the read and the write with __syncwarp(), or exchange the values with __shfl_sync; 'volatile' does not order lanes
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0)
    *y = smem[0];
}
void launch_rms_tail(const float *x, float *y, int d) {
  rms_tail<<<1, dim3(32, 8), 8 * sizeof(float)>>>(x, y, d);
  rms_tail_no_shuffle<<<1, dim3(32, 8), 8 * sizeof(float)>>>(x, y, d);
}

// The witness's lanes are metrics of the finding (JSON and SARIF): lane 0
// reads what lane 16 wrote.
// JSON: "witness_warp": 0.0,
// JSON-NEXT: "witness_lane_later": 0.0,
// JSON-NEXT: "witness_lane_earlier": 16.0
