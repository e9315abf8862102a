// divergence-subwarp-branch: which lane-dependent `if`s stay divergent
// branches on the GPU. A register assignment under a lane condition is a
// select (no branch at all); a few loads or stores under one are predicated
// by ptxas (a branch in the PTX, none in the SASS); a side with real work
// stays a branch the warp runs one side after the other.
// run_subwarp_branch.sh builds this, counts the branches of each kernel's
// SASS and reads the branch counters with ncu.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Block = 256, Grid = 1024, N = Block * Grid;

// `if (lane_cond) local = expr;`: a select (selp) in the PTX.
__global__ void k_select(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x & 1)
    v = v * 2.0f + 1.0f;
  out[i] = v;
}

// One load under a lane condition: a branch in the PTX.
__global__ void k_pred_load(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (threadIdx.x % 4 == 0)
    v = in[i];
  out[i] = v;
}

// One store under a lane condition.
__global__ void k_pred_store(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x & 1)
    out[i] = in[i];
}

// Real work on both sides: a divergent branch.
__global__ void k_branch(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x & 1) {
    for (int k = 0; k < reps; ++k)
      v = v * 1.0001f + 0.5f;
  } else {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) + 0.25f;
  }
  out[i] = v;
}

// The same with whole warps on each side: no divergence (control).
__global__ void k_warp_uniform(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if ((threadIdx.x / 32) & 1) {
    for (int k = 0; k < reps; ++k)
      v = v * 1.0001f + 0.5f;
  } else {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) + 0.25f;
  }
  out[i] = v;
}

// One-sided branches: the lanes that skip the body have nothing to run,
// so a warp issues the body once however many of its lanes take it. The
// same 128 lanes of each block with a loop of work, spread over every warp
// (the odd lanes: 8 warps issue it) or packed (the first 128 threads: 4
// warps issue it).
__global__ void k_onesided_spread(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x & 1) {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) * 1.0001f + 0.25f;
  }
  out[i] = v;
}

__global__ void k_onesided_packed(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x < Block / 2) {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) * 1.0001f + 0.25f;
  }
  out[i] = v;
}

// A role of a few lanes of one warp: 16 lanes of warp 0 run the loop, or
// all 32 lanes of warp 0 run it (twice the items): the same warp
// instructions, so the 16 idle lanes cost nothing that a repacking saves.
__global__ void k_role_half_warp(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x < 16) {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) * 1.0001f + 0.25f;
  }
  out[i] = v;
}

__global__ void k_role_full_warp(float *out, const float *in, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x < 32) {
    for (int k = 0; k < reps; ++k)
      v = __sinf(v) * 1.0001f + 0.25f;
  }
  out[i] = v;
}

// Size sweeps: S loads, S stores or S dependent multiply-adds under a lane
// condition, to see where ptxas stops predicating.
template <int S> __global__ void k_loads(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (threadIdx.x & 1) {
#pragma unroll
    for (int j = 0; j < S; ++j)
      v += in[(i + j * 4096) % N] * float(j + 1);
  }
  out[i] = v;
}

template <int S> __global__ void k_stores(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x & 1) {
#pragma unroll
    for (int j = 0; j < S; ++j)
      out[(i + j * 4096) % N] = v + float(j);
  }
}

template <int S> __global__ void k_arith(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x & 1) {
#pragma unroll
    for (int j = 0; j < S; ++j)
      v = __fdividef(v, v * v + float(j + 1));
  }
  out[i] = v;
}

template <int S> void sweep(float *out, const float *in) {
  k_loads<S><<<Grid, Block>>>(out, in);
  k_stores<S><<<Grid, Block>>>(out, in);
  k_arith<S><<<Grid, Block>>>(out, in);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemset(in, 0, N * sizeof(float));
  k_select<<<Grid, Block>>>(out, in);
  k_pred_load<<<Grid, Block>>>(out, in);
  k_pred_store<<<Grid, Block>>>(out, in);
  k_branch<<<Grid, Block>>>(out, in, 64);
  k_warp_uniform<<<Grid, Block>>>(out, in, 64);
  k_onesided_spread<<<Grid, Block>>>(out, in, 64);
  k_onesided_packed<<<Grid, Block>>>(out, in, 64);
  k_role_half_warp<<<Grid, Block>>>(out, in, 64);
  k_role_full_warp<<<Grid, Block>>>(out, in, 64);
  sweep<1>(out, in);
  sweep<2>(out, in);
  sweep<4>(out, in);
  sweep<8>(out, in);
  sweep<16>(out, in);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(E));
  return E != cudaSuccess;
}
