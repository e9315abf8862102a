// Accesses the source analysis does not follow but the optimised code shows:
// after -O3 inlines the helpers, an address that is linear in the thread
// index (scalar evolution, the rest warp-uniform), with every lane of the
// warp active (only tail guards `i < n` above it), is judged from the IR and
// reported at the access as written, with the calls it was inlined through.
// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_90 --format=json %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %warplint --ir-layer=false --checks='-*,memory-uncoalesced-access,memory-shared-bank-conflict' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=AST --implicit-check-not='{{warning|error}}:'

// ---- positives

// A view passed by value: the pointer is a field of a kernel parameter.
struct View {
  float *p;
  int n;
};
__device__ float every3rd(View v, int i) { return v.p[i * 3]; }
// CHECK: :[[@LINE-1]]:51: note: each warp load of 'v.p[i * 3]' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart, as the optimised code of 'viewKernel' shows it with the calls inlined (its share of the kernel's traffic is not estimated) [memory-uncoalesced-access]
// CHECK: :[[@LINE+5]]:14: note: inlined into 'viewKernel' here
// CHECK: :[[@LINE-3]]:51: note: stage the data through shared memory
__global__ void viewKernel(View v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v.n) // a tail guard: all lanes of a full warp
    out[i] = every3rd(v, i);
}

// An accessor object returning a reference: column-major, the thread on the
// column, stored through the reference in the kernel.
struct ColMajor {
  float *base;
  int rows;
  __device__ float &at(int r, int c) { return base[c * 32 + r]; }
};
__global__ void columnStore(ColMajor m, const float *in, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n)
    m.at(0, c) = in[c];
// CHECK: :[[@LINE-1]]:5: note: each warp store of 'm.at(0, c)' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 128 bytes apart, as the optimised code of 'columnStore' shows it with the calls inlined (its share of the kernel's traffic is not estimated) [memory-uncoalesced-access]
}

// An index kept in a local array of a helper.
__device__ float viaLocalArray(const float *p) {
  int idx[2];
  idx[0] = threadIdx.x * 2;
  idx[1] = 0;
  return p[idx[0]];
// CHECK: :[[@LINE-1]]:10: note: each warp load of 'p[idx[0]]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart, as the optimised code of 'localArray' shows it with the calls inlined (its share of the kernel's traffic is not estimated) [memory-uncoalesced-access]
// CHECK: :[[@LINE+4]]:22: note: inlined into 'localArray' here
// CHECK: note: stage the data through shared memory
}
__global__ void localArray(const float *p, float *out) {
  out[threadIdx.x] = viaLocalArray(p);
}

// Shared memory through a pointer kept in a struct: 2 floats apart.
struct Tile {
  float *s;
};
__device__ float pick(Tile t) { return t.s[2 * threadIdx.x]; }
// CHECK: :[[@LINE-1]]:40: note: 2-way bank conflict on 't.s[2 * threadIdx.x]' on sm_80: a warp's load hits 2 different 4-byte words in one of the 32 banks (consecutive lanes are 8 bytes apart), so it takes 2 times the passes of a conflict-free access, as the optimised code of 'sharedView' shows it with the calls inlined (slides, 'Shared memory bank conflicts'); how often it runs is not known to the source analysis [memory-shared-bank-conflict]
// CHECK: :[[@LINE+6]]:22: note: inlined into 'sharedView' here
__global__ void sharedView(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x + 32] = in[threadIdx.x + 32];
  __syncthreads();
  out[threadIdx.x] = pick(Tile{s});
}

// The launch's 16x16 block: a warp is two rows of 16 lanes.
__device__ float rowOf(View v, int x, int y) { return v.p[x * 64 + y]; }
// CHECK: :[[@LINE-1]]:55: note: each warp load of 'v.p[x * 64 + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes' addresses are not evenly spaced, as the optimised code of 'blockShape' shows it with the calls inlined (its share of the kernel's traffic is not estimated) [memory-uncoalesced-access]
// CHECK: :[[@LINE+3]]:41: note: inlined into 'blockShape' here
// CHECK: note: stage the data through shared memory
__global__ void blockShape(View v, float *out) {
  out[threadIdx.y * 16 + threadIdx.x] = rowOf(v, threadIdx.x, threadIdx.y);
}
void launch(View v, float *out) { blockShape<<<1, dim3(16, 16)>>>(v, out); }

// ---- negatives

// Only 16 lanes run the access (a guard by a constant): not judged.
__global__ void halfWarp(View v, float *out) {
  int i = threadIdx.x;
  if (i < 16)
    out[i] = every3rd(v, i);
}

// Consecutive through the view: coalesced.
__device__ float same(View v, int i) { return v.p[i]; }
__global__ void unitStride(View v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = same(v, i);
}

// Not inlined: the user asked for a call; nothing in the kernel to judge.
__device__ __noinline__ float kept(View v, int i) { return v.p[i * 3]; }
__global__ void notInlined(View v, float *out) {
  out[threadIdx.x] = kept(v, threadIdx.x);
}

// A run-time stride: the spacing is unknown to the IR too.
__device__ float strided(View v, int i) { return v.p[i * v.n]; }
__global__ void runtimeStride(View v, float *out) {
  out[threadIdx.x] = strided(v, threadIdx.x);
}

// A gather: the index is loaded per lane.
__device__ float gathered(View v, const int *idx) { return v.p[idx[threadIdx.x]]; }
__global__ void gather(View v, const int *idx, float *out) {
  out[threadIdx.x] = gathered(v, idx);
}

// A helper the source analysis follows: reported once, by it.
__device__ float direct(const float *p, int i) { return p[i * 2]; }
// CHECK: :[[@LINE-1]]:57: warning: each warp load of 'p[i * 2]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 67% of the kernel's global sectors, and laying the data out for the warp would save about 33% of them [memory-uncoalesced-access]
// AST: :[[@LINE-2]]:57: warning: each warp load of 'p[i * 2]' touches 8 32-byte sectors
__global__ void followed(const float *p, float *out) {
  out[threadIdx.x] = direct(p, threadIdx.x);
}

// JSON: "ir_only": 1
