// Warp-synchronous code for compute-sanitizer's racecheck, and full-mask
// collectives under data-dependent branches, run on the GPU: what does an
// sm_90 part do with the shapes warp-implicit-sync and warp-mask-divergent
// report, and with their fixed look-alikes? One kernel per process:
// ./warp_sync <name>; prints the number of wrong outputs.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define FULL 0xffffffffu

// ---- warp-implicit-sync shapes (one block of 64 threads)

// The unrolled last-warp reduction through a volatile pointer, no
// __syncwarp (the pre-CUDA-9 samples' tail), in a helper with the guard
// inside it.
__device__ void reduceBlock(volatile float *s, float v, unsigned tid) {
  s[tid] = v;
  __syncthreads();
  if (tid < 32) {
    s[tid] = v = v + s[tid + 32];
    s[tid] = v = v + s[tid + 16];
    s[tid] = v = v + s[tid + 8];
    s[tid] = v = v + s[tid + 4];
    s[tid] = v = v + s[tid + 2];
    s[tid] = v = v + s[tid + 1];
  }
}
__global__ void tail_nosync(const float *in, float *out) {
  __shared__ float s[64];
  reduceBlock(s, in[threadIdx.x], threadIdx.x);
  if (threadIdx.x == 0)
    out[0] = s[0];
}
// The fix: __syncwarp() between each read and write.
__global__ void tail_syncwarp(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  float v = in[tid];
  s[tid] = v;
  __syncthreads();
  if (tid < 32) {
    for (int o = 32; o > 0; o >>= 1) {
      v += s[tid + o];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[0] = s[0];
}
// Write after read: t = s[tid]; s[tid + 1] = ... with no barrier between.
__global__ void war_shift(const float *in, float *out) {
  __shared__ float s[65];
  unsigned tid = threadIdx.x;
  s[tid + 1] = in[tid];
  __syncthreads();
  float t = s[tid];
  s[tid + 1] = t + 1.0f;
  out[tid] = t;
}
// XOR partner in a loop with one __syncwarp per iteration (the write of the
// next iteration races with the partner's read).
__global__ void xor_loop_one_sync(const float *in, float *out) {
  __shared__ float s[64];
  unsigned lane = threadIdx.x;
  float v = in[lane];
  for (int i = 0; i < 4; ++i) {
    s[lane] = v;
    __syncwarp();
    v = 0.5f * (v + s[lane ^ 1]);
  }
  out[lane] = v;
}
__global__ void xor_loop_two_syncs(const float *in, float *out) {
  __shared__ float s[64];
  unsigned lane = threadIdx.x;
  float v = in[lane];
  for (int i = 0; i < 4; ++i) {
    s[lane] = v;
    __syncwarp();
    v = 0.5f * (v + s[lane ^ 1]);
    __syncwarp();
  }
  out[lane] = v;
}

// ---- warp-mask-divergent shapes (one block of 64 threads)

// Odd inputs call a full-mask shuffle; the others go on to another one.
__global__ void mask_data_then_shfl(const float *in, float *out) {
  float v = in[threadIdx.x];
  if ((int)v & 1)
    v += __shfl_xor_sync(FULL, v, 1);
  v += __shfl_xor_sync(FULL, v, 2);
  out[threadIdx.x] = v;
}
// __syncwarp() under a data-dependent branch, a block barrier after it.
__global__ void mask_data_syncwarp_then_barrier(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if ((int)in[threadIdx.x] & 1)
    __syncwarp();
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
// A per-lane trip count around a full-mask shuffle.
__global__ void mask_per_lane_trips(const float *in, float *out) {
  float v = 0.0f;
  int n = (int)in[threadIdx.x] % 4;
  for (int k = 0; k < n; ++k)
    v += __shfl_xor_sync(FULL, v + 1.0f, 1);
  out[threadIdx.x] = v;
}
// The skipping lanes exit: legal ("all non-exited threads named in mask").
__global__ void mask_data_then_exit(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (!((int)v & 1))
    return;
  out[threadIdx.x] = __shfl_sync(FULL, v, threadIdx.x % 32 | 1);
}
// The fix: the mask taken before the branch.
__global__ void mask_ballot(const float *in, float *out) {
  float v = in[threadIdx.x];
  unsigned m = __ballot_sync(FULL, (int)v & 1);
  if ((int)v & 1)
    v += __shfl_xor_sync(m, v, 2); // partners 2 apart have the same parity
  v += __shfl_xor_sync(FULL, v, 4);
  out[threadIdx.x] = v;
}

// A helper whose guard reads the lane its call passes: lanes 16-31 skip
// the full-mask shuffle inside it and go on to the next one in the kernel.
__device__ float upper_half_sum(float v, unsigned lane) {
  if (lane < 16)
    v += __shfl_down_sync(FULL, v, 16);
  return v;
}
__global__ void mask_helper_guard(const float *in, float *out) {
  float r = upper_half_sum(in[threadIdx.x], threadIdx.x % 32);
  r = __shfl_sync(FULL, r, 0);
  out[threadIdx.x] = r;
}

// A lane loop bounded by blockDim.z (llm.c's matmul bias reduction): blocks
// of (4, 8, Z); lane x of each group of 4 runs r = x, x + 4, ... < Z and
// adds its neighbour's value with a full-mask shuffle. With Z a multiple of
// 4 every lane runs Z / 4 iterations; with Z = 2 lanes 2-3 run none.
__global__ void mask_lane_loop(const float *in, float *out) {
  __shared__ float sub[32][8];
  sub[threadIdx.z][threadIdx.y] = in[(threadIdx.z * 8 + threadIdx.y) % 64];
  __syncthreads();
  float acc = 0.0f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4) {
    float v = sub[r][threadIdx.y];
    v += __shfl_down_sync(FULL, v, 1, 4);
    acc += v;
  }
  if (threadIdx.x == 0)
    out[threadIdx.y] = acc;
}

int main(int argc, char **argv) {
  const int N = 64;
  float h[N], r[N], sum = 0;
  for (int i = 0; i < N; ++i)
    sum += h[i] = float(i * 7 % 13);
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  const char *k = argc > 1 ? argv[1] : "";
#define RUN(name) else if (!strcmp(k, #name)) name<<<1, N>>>(in, out)
  if (0) {
  }
  RUN(tail_nosync);
  RUN(tail_syncwarp);
  RUN(war_shift);
  RUN(xor_loop_one_sync);
  RUN(xor_loop_two_syncs);
  RUN(mask_data_then_shfl);
  RUN(mask_data_syncwarp_then_barrier);
  RUN(mask_per_lane_trips);
  RUN(mask_data_then_exit);
  RUN(mask_ballot);
  RUN(mask_helper_guard);
#define RUN_Z(name, z)                                                         \
  else if (!strcmp(k, #name "_z" #z)) name<<<1, dim3(4, 8, z)>>>(in, out)
  RUN_Z(mask_lane_loop, 24);
  RUN_Z(mask_lane_loop, 32);
  RUN_Z(mask_lane_loop, 2);
  else return 2;
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  // The reductions: the sum of the inputs in out[0]. The first shuffle
  // kernel: what converged lanes would give.
  int bad = 0;
  if (!strncmp(k, "tail", 4))
    bad = r[0] != sum;
  if (!strcmp(k, "mask_data_then_shfl"))
    for (int i = 0; i < N; ++i) {
      auto e = [&](int j) {
        return h[j] + (int(h[j]) & 1 ? h[j ^ 1] : 0.0f);
      };
      bad += r[i] != e(i) + e(i ^ 2);
    }
  if (!strcmp(k, "mask_helper_guard"))
    // Converged lanes: every lane gets lane 0's sum of lanes 0 and 16.
    for (int i = 0; i < N; ++i)
      bad += r[i] != h[i / 32 * 32] + h[i / 32 * 32 + 16];
  if (!strncmp(k, "mask_lane_loop_z", 16)) {
    // Lane 0 of each group adds the values of rows 0, 4, ... and of the
    // rows after them that exist.
    int z = atoi(k + 16);
    for (int y = 0; y < 8; ++y) {
      float e = 0.0f;
      for (int row = 0; row < z; row += 4)
        e += h[(row * 8 + y) % 64] + (row + 1 < z ? h[((row + 1) * 8 + y) % 64]
                                                  : 0.0f);
      bad += r[y] != e;
    }
  }
  printf("%s: %s, %d wrong\n", k, cudaGetErrorString(err), bad);
  return err != cudaSuccess;
}
