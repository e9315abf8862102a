// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// A vector load's scalar tail: the lanes that fail `i + 3 < n` and pass
// `i < n` hold i in [n - 3, n - 1], and the lanes' i are 4 apart, so one
// lane at most reads, for every n: one sector, nothing lost, no finding.

__global__ void scan4(const uint4 *in4, const unsigned *in, unsigned *out,
                      int n, bool full) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = gid * 4;
  unsigned x, y, z, w;
  if (full || i + 3 < n) {
    uint4 v = in4[gid];
    x = v.x, y = v.y, z = v.z, w = v.w;
  } else {
    x = (i < n) ? in[i] : 0;
    y = ((i + 1 < n) ? in[i + 1] : 0) + x;
    z = ((i + 2 < n) ? in[i + 2] : 0) + y;
    w = z;
  }
  out[gid] = x + y + z + w;
}

// The same tail with an if: one lane at most stores.
__global__ void store4(uint4 *out4, unsigned *out, unsigned v, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    out4[i / 4] = make_uint4(v, v, v, v);
  } else if (i < n) {
    out[i] = v;
  }
}

// Negative: a window of 8 values over lanes 4 apart holds two lanes, whose
// loads are 16 bytes apart: judged as written (their siblings fill the
// sectors, a note).
__global__ void wide_tail(const float *in, float *out, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 8 >= n && i < n) {
    out[i / 4] = in[i] + in[i + 1] + in[i + 2] + in[i + 3];
    // CHECK: :[[@LINE-1]]:18: note: each warp load of 'in[i]' touches 16 32-byte sectors
    // CHECK: :[[@LINE-2]]:18: note: read the 4 values with one 16-byte access per lane
  }
}

// Negative: every lane reads when the bound is not the same on both sides.
__global__ void two_bounds(const float *in, float *out, int n, int m) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 >= n && i < m) {
    out[i / 4] = in[i] + in[i + 1] + in[i + 2] + in[i + 3];
    // CHECK: :[[@LINE-1]]:18: note: each warp load of 'in[i]' touches 16 32-byte sectors
    // CHECK: :[[@LINE-2]]:18: note: read the 4 values with one 16-byte access per lane
  }
}
