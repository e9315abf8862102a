// The memory checks on what the optimiser leaves of the accesses: the device
// IR through clang's NVPTX -O3 pipeline and the load/store vectoriser.
// Accesses merged into one wider access per lane are judged once, at the
// merged width; removed ones (CSE, dead stores) are not reported; the rest
// keep their AST verdict, as everything does with --ir-layer=false.
// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_50 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=MAXWELL
// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_90 --format=json %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %warplint --ir-layer=false --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=AST --implicit-check-not='{{warning|error}}:'

// A 4-byte RGBA texel (uchar4's layout) read one channel at a time: one
// 4-byte load per lane, contiguous.
struct alignas(4) Rgba {
  unsigned char r, g, b, a;
};
__global__ void rgba_sum(const Rgba *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].r + in[i].g + in[i].b + in[i].a;
  // AST: :[[@LINE-1]]:12: note: each warp load of 'in[i].r' touches 4 32-byte sectors for 32 useful bytes (25% efficiency) on sm_80: consecutive lanes are 4 bytes apart; 'in[i].g', 'in[i].b', 'in[i].a' read the rest of the same sectors: together the 4 accesses move 4 sectors for 128 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (16 sectors requested for the 4 the group needs) [memory-uncoalesced-access]
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
}

// The same texel in an 8-byte struct: still one 4-byte load per lane, now 8
// bytes apart: one finding, judged at 4 bytes.
struct Pixel {
  Rgba c;
  float depth;
};
__global__ void pixel_sum(const Pixel *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].c.r + in[i].c.g + in[i].c.b + in[i].c.a;
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'in[i].c.r' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; the compiler merges it with the accesses beside it into one 4-byte load per lane; it moves about 67% of the kernel's global sectors, and laying the data out for the warp would save about 33% of them [memory-uncoalesced-access]
  // CHECK: :[[@LINE-8]]:8: note: 'Pixel' is 8 bytes and is moved 4 bytes at a time: as a structure of arrays (one array per field) a warp would read 128 contiguous bytes per request
  // MAXWELL: :[[@LINE-3]]:12: warning: each warp load of 'in[i].c.r' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_50: consecutive lanes are 8 bytes apart;
  // JSON: "merged_bytes_per_lane": 4
  // AST: :[[@LINE-5]]:12: warning: each warp load of 'in[i].c.r' touches 8 32-byte sectors for 32 useful bytes (13% efficiency) on sm_80: consecutive lanes are 8 bytes apart; 'in[i].c.g', 'in[i].c.b', 'in[i].c.a' read the rest of the same sectors: together the 4 accesses move 8 sectors for 128 useful bytes (50%); they move about 67% of the kernel's global sectors, and laying the data out for the warp would save about 33% of them [memory-uncoalesced-access]
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
}

// A uchar4 stored a channel at a time (CUDA by Example's float_to_color):
// the vectoriser merges .z with the constant .w, and .x, .y stay byte
// stores. The four are one group, reported once at .x; the merged pair
// is part of it, not a finding of its own at half the sectors.
__device__ unsigned char channel(float n1, float n2, int hue) {
  if (hue > 360)
    hue -= 360;
  else if (hue < 0)
    hue += 360;
  if (hue < 60)
    return (unsigned char)(255 * (n1 + (n2 - n1) * hue / 60));
  return (unsigned char)(255 * (hue < 180 ? n2 : n1));
}
__global__ void float_to_color(uchar4 *optr, const float *src) {
  int offset = blockIdx.x * blockDim.x + threadIdx.x;
  float l = src[offset];
  int h = (180 + (int)(360.0f * l)) % 360;
  float m2 = l <= 0.5f ? l * 2 : 1;
  float m1 = 2 * l - m2;
  optr[offset].x = channel(m1, m2, h + 120);
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'optr[offset].x' touches 4 32-byte sectors for 32 useful bytes (25% efficiency) on sm_80: consecutive lanes are 4 bytes apart; 'optr[offset].y', 'optr[offset].z', 'optr[offset].w' write the rest of the same sectors: together the 4 accesses move 4 sectors for 128 useful bytes (100%)
  // CHECK: :[[@LINE-2]]:3: note: store the whole 'uchar4' once (one 4-byte store per lane), built from its components
  // CHECK-NOT: :[[@LINE+3]]:3: note: each warp store of 'optr[offset].z'
  optr[offset].y = channel(m1, m2, h);
  optr[offset].z = channel(m1, m2, h - 120);
  optr[offset].w = 255;
}

// Two neighbours of an 8-aligned shared array: one 8-byte load per lane,
// served by half-warps: conflict-free, in the IR and in the source
// analysis (siblings of 8 contiguous bytes at an 8-aligned address).
__global__ void pairs(float *out) {
  __shared__ __attribute__((aligned(8))) float s[64];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = t;
  __syncthreads();
  out[t] = s[2 * t] + s[2 * t + 1];
  // AST-NOT: bank conflict on 's[2 * t
}

// Without a declared alignment clang's IR keeps two loads, but the
// function's only __shared__ array is where ptxas lays it out, at the
// start of the block's shared memory, and ptxas makes the pair one LDS.64
// (bench/gpu/lds-vector-h100.txt; on an H100, bank_savings.cu's double_pair
// and seq4 moved as many shared wavefronts as their conflict-free
// layouts): judged merged, conflict-free.
__global__ void pairs_unaligned(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = t;
  __syncthreads();
  out[t] = s[2 * t] + s[2 * t + 1];
  // CHECK-NOT: bank conflict on 's[2 * t
  // AST-NOT: bank conflict on 's[2 * t
}

// A 64-bit pair of an 8-aligned array: merged into 16 bytes per lane, 16
// bytes apart, served by quarter-warps: conflict-free as well.
__global__ void double_pairs(double *out) {
  __shared__ __attribute__((aligned(16))) double d[64];
  int t = threadIdx.x;
  d[t] = t;
  d[t + 32] = t;
  __syncthreads();
  out[t] = d[2 * t] + d[2 * t + 1];
  // CHECK-NOT: bank conflict on 'd[2 * t
  // AST-NOT: bank conflict on 'd[2 * t
}

// Every fourth float of a 16-aligned array, two at a time: one 8-byte load
// per lane 16 bytes apart, still 2-way in each half-warp.
__global__ void pairs_stride4(float *out) {
  __shared__ __attribute__((aligned(16))) float s[128];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = t;
  s[t + 64] = t;
  s[t + 96] = t;
  __syncthreads();
  out[t] = s[4 * t] + s[4 * t + 1];
  // CHECK: :[[@LINE-1]]:12: note: 2-way bank conflict on 's[4 * t]' on sm_80: a warp's load hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 16 bytes apart; the compiler merges it with the accesses beside it into one 8-byte load per lane), so it takes 2 times the passes of a conflict-free access (slides, 'Shared memory bank conflicts'); the extra passes are about 10% of the kernel's memory work (its shared-memory passes, and its global sectors at 2 passes each) [memory-shared-bank-conflict]
  // JSON: "merged_bytes_per_lane": 8
  // AST: :[[@LINE-3]]:12: note: 2-way bank conflict on 's[4 * t]' on sm_80: a warp's load hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 16 bytes apart)
  // AST-NOT: bank conflict on 's[4 * t + 1]'
}

// The same field read twice with no store between: one load, one finding.
struct P3 {
  float x, y, z;
};
__global__ void twice(const P3 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[i].x;
  // CHECK: :[[@LINE-1]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart; it moves about 75% of the kernel's global sectors, and laying the data out for the warp would save about 50% of them [memory-uncoalesced-access]
  // AST: :[[@LINE-2]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  float b = p[i].x * 2.0f;
  // AST: :[[@LINE-1]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  out[i] = a + b;
}

// A store that may write p[i].x between the reads: both loads stay.
__global__ void twice_with_store(P3 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[i].x;
  // CHECK: :[[@LINE-1]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  // AST: :[[@LINE-2]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  out[i] = 1.0f;
  float b = p[i].x * 2.0f;
  // CHECK: :[[@LINE-1]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  // AST: :[[@LINE-2]]:13: warning: each warp load of 'p[i].x' touches 12 32-byte sectors
  out[i + 1] = a + b;
}

// A 16x16 block's transposed store written twice: the first is dead.
__global__ void transpose16(const float *in, float *out, int n) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float v = in[y * n + x];
  out[x * n + y] = 0.0f;
  // AST: :[[@LINE-1]]:3: note: each warp store of 'out[x * n + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80
  out[x * n + y] = v;
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * n + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (n * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (n * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
  // AST: :[[@LINE-2]]:3: note: each warp store of 'out[x * n + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80
}

void launch(const float *in, float *out, int n) {
  transpose16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(in, out, n);
}

// nvcc places an extern __shared__ array at a 16-byte boundary: s[2 * t] and
// s[2 * t + 1] become one conflict-free ld.shared.v2.f32 (fwtBatch1Kernel,
// dwtHaar1D). The source analysis merges them too: the function's only
// __shared__ array.
__global__ void externPair(float *out) {
  extern __shared__ float ext[];
  int t = threadIdx.x;
  ext[t] = out[t];
  ext[t + blockDim.x] = out[t + blockDim.x];
  __syncthreads();
  out[t] = ext[2 * t] - ext[2 * t + 1];
  // CHECK-NOT: bank conflict on 'ext[2 * t
  // AST-NOT: bank conflict on 'ext[2 * t
}

// libdevice's expf touches no memory: the .x and .y loads around it still
// merge into one 8-byte load per lane (BlackScholesGPU), and a second read
// after sqrtf is still the first one's value.
__global__ void acrossMath(float *out, const float2 *__restrict__ in) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float a = expf(in[i].x);
  float b = expf(in[i].y);
  // AST: :[[@LINE-2]]:18: note: each warp load of 'in[i].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency)
  // (reported with its siblings, at the first of them)
  out[i] = a + b + sqrtf(in[i + 1].x) + in[i + 1].x;
  // CHECK: :[[@LINE-1]]:26: note: each warp load of 'in[i + 1].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; 'in[i].x', 'in[i].y' read the rest of the same sectors: together the 3 accesses move 9 sectors for 260 useful bytes (90%), so no L2 or DRAM bandwidth is lost, only L1 work (24 sectors requested for the 9 the group needs) [memory-uncoalesced-access]
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
}

// A load that LICM hoists out of its loop survives without a source
// position: it is not a removed access, and keeps its verdict (lavaMD's
// rA_shared[wtx].v beside exp()).
struct Rec {
  float v, a, b, c;
};
__global__ void hoisted(const Rec *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += expf(in[i].v * j);
  // CHECK: :[[@LINE-1]]:17: warning: each warp load of 'in[i].v' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; it moves about 98% of the kernel's global sectors, and laying the data out for the warp would save about 74% of them (taking each loop of unknown trip count as 16 rounds) [memory-uncoalesced-access]
  // AST: :[[@LINE-2]]:17: warning: each warp load of 'in[i].v' touches 16 32-byte sectors
  out[i] = acc;
}

// Two 8-aligned float2 arrays (cufftComplex): ft_k[i].x and ft[i].y lie at 0
// and 4 modulo 8, so they cannot overlap, and nvcc moves the .y load above
// the .x store: one 8-byte load and one 8-byte store per lane, every byte
// used (simpleCUFFT_2d_MGPU's solvePoisson).
__global__ void negateAligned(float2 *ft_k, const float2 *ft, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ft_k[i].x = -ft[i].x * k;
  ft_k[i].y = -ft[i].y * k;
  // AST: :[[@LINE-2]]:3: note: each warp store of 'ft_k[i].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency)
  // AST: :[[@LINE-3]]:16: note: each warp load of 'ft[i].x'
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
}

// The look-alike: a pair of floats aligned to 4 only. ft_k[i].x may be
// ft[i].y, nvcc keeps four 4-byte accesses, and so are they judged: each
// pair fills the sectors it touches (a note).
struct Pair {
  float x, y;
};
__global__ void negatePacked(Pair *ft_k, const Pair *ft, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ft_k[i].x = -ft[i].x * k;
  ft_k[i].y = -ft[i].y * k;
  // CHECK: :[[@LINE-2]]:3: note: each warp store of 'ft_k[i].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; 'ft_k[i].y' writes the rest of the same sectors: together the 2 accesses move 8 sectors for 256 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (16 sectors requested for the 8 the group needs) [memory-uncoalesced-access]
  // CHECK: :[[@LINE-3]]:16: note: each warp load of 'ft[i].x' touches 8 32-byte sectors for 128 useful bytes (50% efficiency)
  // The .y accesses are the .x accesses' siblings, reported with them.
  // (reported with its siblings, at the first of them)
  // (reported with its siblings, at the first of them)
  // AST: :[[@LINE-7]]:3: note: each warp store of 'ft_k[i].x'
  // AST: :[[@LINE-8]]:16: note: each warp load of 'ft[i].x'
}

// A float2 read whole (copied into a local, passed by value) is one memcpy
// at -O0 and one 8-byte load under -O3: read again with nothing written in
// between, it is the first read's value and no access of its own
// (BezierLineCDP's curvature).
struct Curve {
  float2 a, b, c;
};
__device__ float len(float2 v) { return sqrtf(v.x * v.x + v.y * v.y); }
__global__ void rereadWhole(const Curve *cs, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 d = cs[i].b;
  out[i] = len(d) / len(cs[i].b);
  // CHECK: :[[@LINE-2]]:14: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors for 256 useful bytes (33% efficiency) on sm_80: consecutive lanes are 24 bytes apart; it moves about 86% of the kernel's global sectors, and laying the data out for the warp would save about 57% of them [memory-uncoalesced-access]
  // CHECK: :[[@LINE-9]]:8: note: 'Curve' is 24 bytes
  // AST: :[[@LINE-4]]:14: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors
  // AST: :[[@LINE-4]]:25: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors
}
// A store between that may overwrite it: both reads stay.
__global__ void rereadAfterStore(const Curve *cs, float2 *tmp, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 d = cs[i].b;
  tmp[i] = d;
  out[i] = len(d) / len(cs[i].b);
  // CHECK: :[[@LINE-3]]:14: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors for 256 useful bytes (33% efficiency)
  // CHECK: :[[@LINE-2]]:25: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors for 256 useful bytes (33% efficiency)
  // AST: :[[@LINE-5]]:14: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors
  // AST: :[[@LINE-4]]:25: warning: each warp load of 'cs[i].b' touches 24 32-byte sectors
}
