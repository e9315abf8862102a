// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --format=sarif %s -- -std=c++17 | FileCheck %s --check-prefix=SARIF
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 --config-file=%S/Inputs/min-saving-90.yaml %s -- -std=c++17 | FileCheck %s --check-prefix=STRICT --implicit-check-not='{{warning|error}}:'
// What a fix would save: the share of the kernel's global sectors, with the
// siblings that read the rest of the same sectors merged into one group.
// Warnings where the fix saves at least MinSavingPct (20) of the kernel's
// sectors; notes where the pattern is real but small.
struct Pair { float a; float b; };
struct P3 { float x, y, z; };

// float3-like AoS rotated in place: the three fields fill every sector they
// touch (measured on an H100: AoS and SoA take the same time). A note each
// way, reported once at the first field.
__global__ void rotate(P3 *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = p[i].x, y = p[i].y, z = p[i].z;
    // CHECK: :[[@LINE-1]]:15: note: each warp load of 'p[i].x' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart; 'p[i].y', 'p[i].z' read the rest of the same sectors: together the 3 accesses move 12 sectors for 384 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (36 sectors requested for the 12 the group needs) [memory-uncoalesced-access]
    // CHECK: :10:8: note: 'P3' is 12 bytes
    p[i].x = y;
    // CHECK: :[[@LINE-1]]:5: note: each warp store of 'p[i].x' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart; 'p[i].y', 'p[i].z' write the rest of the same sectors
    p[i].y = z;
    p[i].z = x;
  }
}

// A pair read together: one 8-byte load would do.
__global__ void pairs(const Pair *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i].a + in[i].b;
  // CHECK: :[[@LINE-1]]:14: note: each warp load of 'in[i].a' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; 'in[i].b' reads the rest of the same sectors: together the 2 accesses move 8 sectors for 256 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (16 sectors requested for the 8 the group needs) [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:14: note: read the 2 values with one 8-byte access per lane (float2 or uint2 through a cast of the element's address, where the element is 8-byte aligned): one request instead of 2
  // JSON: "saving_pct": 0.0,
  // JSON: "group_accesses": 2.0,
  // JSON: "group_sectors": 8.0,
}

// The same struct with one field read: half of every sector is wasted, and
// the load is most of the kernel's traffic.
__global__ void oneField(const Pair *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i].a;
  // CHECK: :[[@LINE-1]]:14: warning: each warp load of 'in[i].a' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 67% of the kernel's global sectors, and laying the data out for the warp would save about 33% of them [memory-uncoalesced-access]
  // CHECK: :9:8: note: 'Pair' is 8 bytes
  // JSON: "kernel_sectors_pct": 66.6{{[0-9]*}},
  // JSON: "saving_pct": 33.3{{[0-9]*}}
  // SARIF: "rank": 33.3
}

// Read once per thread before the loop that does the work: real, and small.
__global__ void onceBeforeLoop(const float *a, const float *b, float *c) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = a[t * 4];
  // CHECK: :[[@LINE-1]]:13: note: each warp load of 'a[t * 4]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; it moves about 2% of the kernel's global sectors, and laying the data out for the warp would save about 1% of them [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:13: note: stage the data through shared memory
  for (int k = 0; k < 256; ++k)
    s += b[k * 4096 + t];
  c[t] = s;
}

// A thread per row of a row-major matrix whose row length bounds the loop:
// the kernel's traffic, almost all of it wasted.
__global__ void rowPerThread(const float *a, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[row * n + k];
    // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'a[row * n + k]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (n * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 99% of the kernel's global sectors, and laying the data out for the warp would save about 87% of them (taking each loop of unknown trip count as 16 rounds) [memory-uncoalesced-access]
    // CHECK: :[[@LINE-2]]:12: note: stage the data through shared memory
    // STRICT: :[[@LINE-3]]:12: note: each warp load of 'a[row * n + k]'
    y[row] = s;
  }
}

// A BLAS-style increment: nothing in the kernel says INCX is more than 1.
__global__ void axpy(int N, float ALPHA, const float *X, int INCX, float *Y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    Y[i] += ALPHA * X[i * INCX];
  // CHECK: :[[@LINE-1]]:21: note: each warp load of 'X[i * INCX]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (INCX * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (INCX * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:21: note: stage the data through shared memory
}

// Neighbouring elements read by one lane: the pair fills its sectors.
// A guard that fixes the run-time stride: under `v == 1` the lanes read
// consecutive float4s (FasterTransformer's scale_is_vector); under `v == 0`
// they all read one (a broadcast). Neither wastes a sector. A guard on
// another value leaves the stride to judge.
__global__ void guardedStride(const float4 *scale, float4 *out, int v, int w) {
  float4 s = v == 1 ? scale[threadIdx.x * v] : make_float4(0, 0, 0, 0);
  if (v == 0)
    s.x += scale[threadIdx.x * v].x;
  if (w == 2)
    s.y += scale[threadIdx.x * w].y;
  // CHECK: :[[@LINE-1]]:12: note: each warp load of 'scale[threadIdx.x * w].y' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (w * 16) bytes
  out[threadIdx.x] = s;
}

// A stride that is a 0/1 flag by its type or name (a bool, or an integer
// named as a predicate): a broadcast or consecutive elements, never more.
// An integer named otherwise is judged.
__global__ void flaggedStride(const float4 *scale, float4 *out,
                              int scale_is_vector, bool perLane, int hasBias,
                              int width) {
  float4 s = scale[threadIdx.x * scale_is_vector];
  float4 t = scale[threadIdx.x * perLane];
  float4 u = scale[threadIdx.x * hasBias];
  s.x += t.x + u.x;
  // CHECK-NOT: 'scale[threadIdx.x * scale_is_vector]'
  // CHECK-NOT: 'scale[threadIdx.x * perLane]'
  // CHECK-NOT: 'scale[threadIdx.x * hasBias]'
  if (threadIdx.x < width)
    s.z += scale[threadIdx.x * width].z;
  // CHECK: :[[@LINE-1]]:12: note: each warp load of 'scale[threadIdx.x * width].z' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (width * 16) bytes
  out[threadIdx.x] = s;
}

__global__ void neighbours(const float *bW, float *out) {
  int m = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[m / 2] = bW[m] * bW[m + 1];
  // CHECK: :[[@LINE-1]]:16: note: each warp load of 'bW[m]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; 'bW[m + 1]' reads the rest of the same sectors: together the 2 accesses move 8 sectors for 256 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (16 sectors requested for the 8 the group needs) [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:16: note: read the 2 values with one 8-byte access per lane
}

// Two fields of a 16-byte struct: the group still wastes half of what it
// moves, and says so.
struct Quad { float a, b, c, d; };
__global__ void twoOfFour(const Quad *q, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = q[i].a + q[i].b;
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'q[i].a' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; 'q[i].b' reads the rest of the same sectors: together the 2 accesses move 16 sectors for 256 useful bytes (50%); they move about 80% of the kernel's global sectors, and laying the data out for the warp would save about 40% of them [memory-uncoalesced-access]
  // CHECK: :[[@LINE-5]]:8: note: 'Quad' is 16 bytes
}

// A whole struct stored at once: the compiler's three 4-byte pieces are
// siblings that fill the sectors (MD's force3[idx] = f).
__global__ void storeWhole(P3 *force, const float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P3 f = {a[i], a[i], a[i]};
  force[i] = f;
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'force[i]' touches 12 32-byte sectors for 128 useful bytes (33% efficiency) on sm_80: consecutive lanes are 12 bytes apart; the copy of the whole 'P3' moves its other 2 pieces of 4 bytes beside it: together the 3 accesses move 12 sectors for 384 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (36 sectors requested for the 12 the group needs) [memory-uncoalesced-access]
  // CHECK: :10:8: note: 'P3' is 12 bytes
}

// Loads through __ldg of neighbouring pointers are siblings too.
__global__ void ldgQuad(const float *bias, float *out) {
  int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[c / 4] = __ldg(bias + c) + __ldg(bias + c + 1) + __ldg(bias + c + 2) +
               __ldg(bias + c + 3);
  // CHECK: :[[@LINE-2]]:16: note: each warp load of '__ldg(bias + c)' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; '__ldg(bias + c + 1)', '__ldg(bias + c + 2)', '__ldg(bias + c + 3)' read the rest of the same sectors: together the 4 accesses move 16 sectors for 512 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (64 sectors requested for the 16 the group needs) [memory-uncoalesced-access]
  // CHECK: :[[@LINE-3]]:16: note: read the 4 values with one 16-byte access per lane
}

// The rounds of a loop nvcc unrolls whole (a constant trip count) fill each
// other's sectors when each moves the address by less than the lanes'
// spacing: a thread's run of four floats (FasterTransformer's
// ELEMENT_PER_ROUND, bitsandbytes' sub loop).
__global__ void ownRun(float *out, const float *in) {
  int id = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  for (int i = 0; i < 4; ++i)
    out[id + i] = in[id + i] * 2.0f;
  // CHECK: :[[@LINE-1]]:5: note: each warp store of 'out[id + i]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; the other 3 rounds of its loop, which nvcc unrolls, write the rest of the same sectors: together the 4 accesses move 16 sectors for 512 useful bytes (100%), so no L2 or DRAM bandwidth is lost, only L1 work (64 sectors requested for the 16 the group needs)
  // CHECK: :[[@LINE-2]]:19: note: each warp load of 'in[id + i]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: consecutive lanes are 16 bytes apart; the other 3 rounds of its loop, which nvcc unrolls, read the rest of the same sectors
}
// Rounds that cover only part of the lanes' spacing: half of each sector
// lost, judged for the group.
__global__ void spreadRun(float *out, const float *in) {
  int id = (blockIdx.x * blockDim.x + threadIdx.x) * 64;
  for (int i = 0; i < 4; ++i)
    out[id + i] = in[id + i] * 2.0f;
  // CHECK: :[[@LINE-1]]:5: warning: each warp store of 'out[id + i]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 256 bytes apart; the other 3 rounds of its loop, which nvcc unrolls, write the rest of the same sectors: together the 4 accesses move 32 sectors for 512 useful bytes (50%); they move about 50% of the kernel's global sectors, and laying the data out for the warp would save about 25% of them
  // CHECK: :[[@LINE-2]]:19: warning: each warp load of 'in[id + i]' touches 32 32-byte sectors
}
// Two rounds: the other round fills the sectors.
__global__ void pairRun(float *out, const float *in) {
  int id = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  for (int i = 0; i < 2; ++i)
    out[id + i] = in[id + i] * 2.0f;
  // CHECK: :[[@LINE-1]]:5: note: each warp store of 'out[id + i]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; the other round of its loop, which nvcc unrolls, writes the rest of the same sectors: together the 2 accesses move 8 sectors for 256 useful bytes (100%)
  // CHECK: :[[@LINE-2]]:19: note: each warp load of 'in[id + i]' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; the other round of its loop, which nvcc unrolls, reads the rest of the same sectors
}
// The rounds of a loop outside a short loop of its own, through the locals
// that hold the index, and a pair of vector loads through casts of the
// elements' addresses (bitsandbytes' 4-bit GEMV, fp32 path): each lane's
// 128 bytes are read whole.
template <int M_BLOCK>
__global__ void subRounds(const float *__restrict__ A, float *out, int K,
                          int base_m) {
  const int lane = threadIdx.x % 32;
  const int inner_k = lane * 32;
  float acc[M_BLOCK] = {};
#pragma unroll
  for (int sub = 0; sub < 4; sub++) {
#pragma unroll
    for (int m = 0; m < M_BLOCK; m++) {
      const int m_global = base_m + m;
      const int a_k = inner_k + sub * 8;
      const uint4 a4a = *reinterpret_cast<const uint4 *>(&A[m_global * K + a_k]);
      const uint4 a4b =
          *reinterpret_cast<const uint4 *>(&A[m_global * K + a_k + 4]);
      // CHECK: :[[@LINE-3]]:25: note: each warp load of '*reinterpret_cast<const uint4 *>(&A[m_global * K + a_k])' touches 32 32-byte sectors for 512 useful bytes (50% efficiency) on sm_80: consecutive lanes are 128 bytes apart; '*reinterpret_cast<const uint4 *>(&A[m...' reads the rest of the same sectors, and the other 3 rounds of its loop, which nvcc unrolls, read the rest of the same sectors: together the 8 accesses move 128 sectors for 4096 useful bytes (100%), so no L2 or DRAM bandwidth is lost
      acc[m] += __uint_as_float(a4a.x) + __uint_as_float(a4a.y) +
                __uint_as_float(a4a.z) + __uint_as_float(a4a.w) +
                __uint_as_float(a4b.x) + __uint_as_float(a4b.y) +
                __uint_as_float(a4b.z) + __uint_as_float(a4b.w);
    }
  }
  for (int m = 0; m < M_BLOCK; m++)
    out[m * 32 + lane] = acc[m];
}
template __global__ void subRounds<4>(const float *__restrict__, float *, int,
                                      int);
// The same loads with a loop of unknown length between the rounds: what
// one round brought in need not be in L1 when the next comes.
__global__ void farRounds(const float *__restrict__ A, float *out, int K,
                          int rows) {
  const int inner_k = (threadIdx.x % 32) * 32;
  float acc = 0;
  for (int sub = 0; sub < 4; sub++)
    for (int m = 0; m < rows; m++) {
      const uint4 a4a =
          *reinterpret_cast<const uint4 *>(&A[m * K + inner_k + sub * 8]);
      // CHECK: :[[@LINE-1]]:11: warning: each warp load of '*reinterpret_cast<const uint4 *>(&A[m * K + inner_k + sub...' touches 32 32-byte sectors for 512 useful bytes (50% efficiency) on sm_80: consecutive lanes are 128 bytes apart; it moves about
      acc += __uint_as_float(a4a.x) + __uint_as_float(a4a.y) +
             __uint_as_float(a4a.z) + __uint_as_float(a4a.w);
    }
  out[threadIdx.x] = acc;
}

// A guard that narrows the loop's range: the walk under `index < batch`, in
// a grid-stride loop over `index < batch * length * hidden`, runs for 1 in
// length * hidden of the loop's values (both taken as 16): a prologue of the
// first threads, a small share of the kernel. A note.
__global__ void lookupFirst(float *out, int *ids_out, const float *table,
                            const int *ids, int batch, int length, int hidden) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x;
       index < batch * length * hidden; index += blockDim.x * gridDim.x) {
    if (index < batch) {
      for (int s = 0; s < length; s++)
        ids_out[s * batch + index] = ids[index * length + s];
      // CHECK: :[[@LINE-1]]:38: note: each warp load of 'ids[index * length + s]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (length * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 14% of the kernel's global sectors, and laying the data out for the warp would save about 12% of them (taking each loop of unknown trip count as 16 rounds; it runs only where 'index < batch', 1 in 256 of the values 'index < batch * length * hidden' lets through, each factor not written with constants taken as 16) [memory-uncoalesced-access]
    }
    out[index] = table[ids[index / hidden] * hidden + index % hidden];
  }
}

// The same walk under a guard the loop's bound does not hold as a factor:
// every value of index may pass it. A warning.
__global__ void walkFirst(int *ids_out, const int *ids, int batch, int length,
                          int n) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    if (index < batch) {
      for (int s = 0; s < length; s++)
        ids_out[s * batch + index] = ids[index * length + s];
      // CHECK: :[[@LINE-1]]:38: warning: each warp load of 'ids[index * length + s]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (length * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them (taking each loop of unknown trip count as 16 rounds) [memory-uncoalesced-access]
    }
  }
}

// A condition on index between the loop and the guard that is not such a
// product ('index < m' may be as tight as 'batch'): the share is not known,
// the access keeps its full weight. A warning.
__global__ void walkBounded(int *ids_out, const int *ids, int batch,
                            int length, int hidden, int m) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x;
       index < batch * length * hidden; index += blockDim.x * gridDim.x) {
    if (index < m) {
      if (index < batch) {
        for (int s = 0; s < length; s++)
          ids_out[s * batch + index] = ids[index * length + s];
        // CHECK: :[[@LINE-1]]:40: warning: each warp load of 'ids[index * length + s]' touches 32 32-byte sectors
      }
    }
  }
}
