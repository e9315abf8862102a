// Barrier placements behind divergence-barrier's uniformity and exit rules:
// which does the hardware treat as a barrier that only part of the block
// reaches (compute-sanitizer synccheck), and which early exits lose data (a
// wrong-output run against the same kernel without the exit).
// Build: nvcc -O3 -lineinfo -arch=sm_90 barriers_uniform.cu; the device-side
// launch only with -DWITH_CDP -rdc=true -lcudadevrt, in a binary of its own:
// synccheck checks nothing in a binary that uses dynamic parallelism.
// Run one kernel per process: ./barriers_uniform <name>.
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
namespace cg = cooperative_groups;

constexpr int B = 256;

// Uniform by value: idx - threadIdx.x is the same in every thread, so the
// whole block runs the same iterations of the grid-stride loop.
__global__ void stride_cancelled(float *a, int n) {
  __shared__ float s[B];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx - threadIdx.x < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = idx < n ? a[idx] : 0.0f;
    __syncthreads();
    if (idx < n)
      a[idx] = s[B - 1 - threadIdx.x];
    __syncthreads();
  }
}

// The look-alike: idx < n leaves the tail block's last threads out.
__global__ void stride_plain(float *a, int n) {
  __shared__ float s[B];
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n;
       idx += gridDim.x * blockDim.x) {
    s[threadIdx.x] = a[idx];
    __syncthreads();
    a[idx] = s[threadIdx.x ^ 1];
    __syncthreads();
  }
}

// One index per group of 4 threads, cancelled per group.
__global__ void stride_per_group(int *a, int n) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) / 4;
  while ((idx - threadIdx.x / 4) < n) {
    if (idx < n)
      atomicAdd(&a[idx], 1);
    __syncthreads();
    idx += gridDim.x * blockDim.x / 4;
  }
}

// A block-stride loop whose bound is the launched blockDim.x: one iteration
// each (launched with 256), and with a bound of 250 (not a multiple).
template <int N> __global__ void block_stride(float *a) {
  __shared__ float s[B];
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) {
    s[pos] = a[pos];
    __syncthreads();
    a[pos] = s[N - 1 - pos];
  }
}

// The stride a template constant (MonteCarlo's sumReduce<SUM_N,
// blockSize>): 256 threads, bound and stride 256, one iteration each.
template <int N, int Stride> __device__ void sum_reduce(float *s) {
  for (int pos = threadIdx.x; pos < N; pos += Stride) {
    __syncthreads();
    if (pos < N / 2)
      s[pos] += s[pos + N / 2];
    __syncthreads();
  }
}
__global__ void stride_constant(float *a) {
  __shared__ float s[B];
  s[threadIdx.x] = a[threadIdx.x];
  sum_reduce<B, B>(s);
  a[threadIdx.x] = s[threadIdx.x];
}

// A loop whose only exit is a block-wide vote through shared memory (ggml's
// KV-mask scan): each warp's __all_sync goes to buf[warp]; after a barrier
// every warp votes over buf[tid % 32]. The input is +inf from column 640 of
// 1024 on, so every thread runs 2 iterations and leaves at j = 512.
__global__ void vote_through_shared(const float *mask, float *out, int n) {
  __shared__ int buf[32];
  const int tid = threadIdx.x;
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - B;
  for (; j >= 0; j -= B) {
    int all_inf = __all_sync(0xffffffff, isinf(mask[j + tid]));
    if (tid % 32 == 0)
      buf[tid / 32] = all_inf;
    __syncthreads();
    all_inf = buf[tid % 32];
    __syncthreads();
    all_inf = __all_sync(0xffffffff, all_inf);
    if (!all_inf)
      break;
  }
  if (tid == 0)
    out[blockIdx.x] = j + B;
}

// A work queue: the only exit is a break on a __shared__ flag thread 0 set.
__device__ int queue_head;
__global__ void work_queue(const float *in, float *out, int items) {
  __shared__ int item;
  __shared__ bool done;
  __shared__ float s[B];
  while (1) {
    if (threadIdx.x == 0) {
      item = atomicAdd(&queue_head, 1);
      done = item >= items;
    }
    __syncthreads();
    if (done)
      break;
    s[threadIdx.x] = in[item * B + threadIdx.x];
    __syncthreads();
    out[item * B + threadIdx.x] = s[B - 1 - threadIdx.x];
    __syncthreads();
  }
}

#ifdef WITH_CDP
// A device-side launch under a thread-dependent condition: the child's
// barrier is the child's blocks' own.
__global__ void child(float *a) {
  __shared__ float s[32];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[31 - threadIdx.x];
}
__global__ void parent_launch(float *a) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(a);
  __syncthreads();
}
#endif

// A grid barrier under a block-index condition: the odd blocks never arrive.
__global__ void grid_sync_even_blocks(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 0)
    grid.sync();
  a[blockIdx.x] = 1.0f;
}

// A trip count that differs between blocks (4 blocks, n = 6: blocks 0 and 1
// run two iterations, 2 and 3 one): the second grid barrier waits for blocks
// that have finished. With n = 8 every block runs two.
__global__ void grid_sync_block_stride(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    a[i] += 1.0f;
    grid.sync();
  }
}
// The block's rank, and a grid barrier the other blocks skip by leaving.
__global__ void grid_sync_rank(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == 0)
    grid.sync();
  a[blockIdx.x] = 1.0f;
}
__global__ void grid_sync_first_block_last(float *a) {
  cg::grid_group grid = cg::this_grid();
  a[blockIdx.x] = 1.0f;
  if (blockIdx.x == 0)
    grid.sync();
}
// A condition on a kernel argument: every block arrives.
__global__ void grid_sync_argument(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  if (n > 0)
    grid.sync();
  a[blockIdx.x] = 1.0f;
}

// ---- early exits (wrong-output runs; n = 300 leaves 44 survivors in the
// second block of 256)

// The survivors read their right neighbour's slot: the last survivor reads
// a slot only an exited thread writes.
__global__ void exit_neighbour(const float *a, float *b, int n, int fixed) {
  __shared__ float tile[B + 1];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!fixed && i >= n)
    return;
  tile[threadIdx.x] = i < n ? a[i] : 0.0f;
  if (threadIdx.x == 0)
    tile[B] = 0.0f;
  __syncthreads();
  if (i < n)
    b[i] = tile[threadIdx.x + 1];
}

// The survivors read the mirrored slot.
__global__ void exit_mirror(const float *a, float *b, int n, int fixed) {
  __shared__ float buf[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!fixed && i >= n)
    return;
  buf[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n)
    b[i] = buf[B - 1 - threadIdx.x];
}

// The survivors fill any bin; each bin is merged by its owner thread only.
__global__ void exit_histogram(const int *in, int *hist, int n, int fixed) {
  __shared__ int s_hist[B];
  s_hist[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!fixed && i >= n)
    return;
  if (i < n)
    atomicAdd(&s_hist[in[i]], 1);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], s_hist[threadIdx.x]);
}

// Own slot only: silent, and right.
__global__ void exit_own_slot(const float *a, float *b, int n, int fixed) {
  __shared__ float tile[B];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!fixed && i >= n)
    return;
  tile[threadIdx.x] = i < n ? a[i] * 2.0f : 0.0f;
  __syncthreads();
  if (i < n)
    b[i] = tile[threadIdx.x];
}

// A grid-stride loop that ends the kernel (fixed: the condition cancels the
// thread index, every thread of the block runs the last iteration): in the
// tail block's last iteration the threads past n leave and exit, and the
// last survivor reads the slot of one that left.
__global__ void exit_loop_neighbour(const float *a, float *b, int n,
                                    int fixed) {
  __shared__ float tile[B + 1];
  if (threadIdx.x == 0)
    tile[B] = 0.0f;
  for (int i = blockIdx.x * B + threadIdx.x;
       fixed ? i - int(threadIdx.x) < n : i < n; i += gridDim.x * B) {
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n)
      b[i] = tile[threadIdx.x + 1];
    __syncthreads();
  }
}

// The same loop reading back its own slot (cuCollections' bulk find).
__global__ void exit_loop_own_slot(const float *a, float *b, int n,
                                   int fixed) {
  __shared__ float tile[B];
  for (int i = blockIdx.x * B + threadIdx.x;
       fixed ? i - int(threadIdx.x) < n : i < n; i += gridDim.x * B) {
    tile[threadIdx.x] = i < n ? a[i] * 2.0f : 0.0f;
    __syncthreads();
    if (i < n)
      b[i] = tile[threadIdx.x];
    __syncthreads();
  }
}

// Rounds of a do-while whose condition reads a local the body set last
// from a __shared__ maximum every thread reads after a barrier (FlashInfer's
// top-p sampling): every thread runs the same rounds.
__global__ void shared_round(const float *p, int d, float *out) {
  __shared__ float s_max;
  float hi = 2.0f, m;
  int rounds = 0;
  do {
    m = 0.0f;
    for (int i = threadIdx.x; i < d; i += blockDim.x)
      m = fmaxf(m, p[i] < hi ? p[i] : 0.0f);
    if (threadIdx.x == 0)
      s_max = 0.0f;
    __syncthreads();
    atomicMax((int *)&s_max, __float_as_int(m));
    __syncthreads();
    m = s_max;
    hi = m;
    ++rounds;
    __syncthreads();
  } while (m > 0.5f);
  if (threadIdx.x == 0)
    out[blockIdx.x] = float(rounds);
}

// A block-uniform flag kept in an object that stays in private memory
// (CUB's AgentHistogram: prefer_smem = blockIdx.x & 1).
struct Agent {
  int *smem;
  int *gmem[4];
  bool prefer_smem;
  __device__ Agent(int *s, int *g) : smem(s), prefer_smem(blockIdx.x & 1) {
    for (int c = 0; c < 4; ++c)
      gmem[c] = g + c * gridDim.x * 256 + blockIdx.x * 256;
  }
  __device__ void init() {
    if (prefer_smem) {
      for (int i = threadIdx.x; i < 256; i += blockDim.x)
        smem[i] = 0;
      __syncthreads();
    } else {
      for (int c = 0; c < 4; ++c)
        for (int i = threadIdx.x; i < 256; i += blockDim.x)
          gmem[c][i] = 0;
    }
  }
};
__global__ void agent_flag(int *g) {
  __shared__ int s[256];
  Agent a(s, g);
  a.init();
  g[blockIdx.x * 256 + threadIdx.x] += s[threadIdx.x] & 0;
}

// A stream compaction through a block buffer, flushed when the next batch
// would overflow it (cuCollections' static_set retrieve): the flush and its
// barrier run under `size + count > 2 * B`, with count BlockScan's block
// aggregate, the same in every thread.
__device__ void flush(const int *buf, int size, int *out, int *counter) {
  __shared__ int offset;
  if (threadIdx.x == 0)
    offset = atomicAdd(counter, size);
  __syncthreads();
  for (int i = threadIdx.x; i < size; i += blockDim.x)
    out[offset + i] = buf[i];
}
__global__ void scan_aggregate(const float *in, int n, int *out, int *counter) {
  using Scan = cub::BlockScan<int, B>;
  __shared__ typename Scan::TempStorage tmp;
  __shared__ int buf[2 * B];
  int size = 0;
  for (int idx = blockIdx.x * B + threadIdx.x; idx - threadIdx.x < n;
       idx += gridDim.x * B) {
    int keep = idx < n && in[idx] > 0.5f, offset, count;
    Scan(tmp).ExclusiveSum(keep, offset, count);
    if (size + count > 2 * B) {
      flush(buf, size, out, counter);
      __syncthreads();
      size = 0;
    }
    if (keep)
      buf[size + offset] = idx;
    size += count;
    __syncthreads();
  }
  if (size > 0)
    flush(buf, size, out, counter);
}

// Fills every SM's shared memory with NaN, so that a slot nobody writes reads
// as NaN in the next kernel rather than a leftover that happens to match.
__global__ void poison() {
  __shared__ float buf[12 * 1024];
  volatile float *p = buf;
  for (int k = threadIdx.x; k < 12 * 1024; k += blockDim.x)
    p[k] = __int_as_float(0x7fffffff);
  __syncthreads();
}

template <typename K>
static int compare(const char *name, K launch, int n) {
  float *a, *b;
  cudaMalloc(&a, 512 * sizeof(float));
  cudaMalloc(&b, 512 * sizeof(float));
  std::vector<float> h(512);
  for (int k = 0; k < 512; ++k)
    h[k] = float(k + 1);
  cudaMemcpy(a, h.data(), 512 * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> out[2];
  for (int fixed = 1; fixed >= 0; --fixed) {
    poison<<<264, 1024>>>();
    cudaMemset(b, 0, 512 * sizeof(float));
    launch(a, b, n, fixed);
    cudaDeviceSynchronize();
    out[fixed].resize(n);
    cudaMemcpy(out[fixed].data(), b, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  int bad = 0, first = -1;
  for (int k = 0; k < n; ++k)
    if (!(out[0][k] == out[1][k])) {
      if (first < 0)
        first = k;
      ++bad;
    }
  printf("%s: %d of %d outputs differ from the kernel without the exit", name,
         bad, n);
  if (first >= 0)
    printf(" (first: element %d, %g instead of %g)", first, out[0][first],
           out[1][first]);
  printf("\n");
  return bad ? 1 : 0;
}

// A branch the launch shape makes the same in every thread: threadIdx.x <
// 256 with 256 threads launched; threadIdx.y < 4 (and threadIdx.x / 32 == 0)
// with dim3(32, 4). The same bound under a block it splits: threadIdx.x <
// 100 with 256 threads, a barrier after the branch that the others reach.
__global__ void bound_is_block(float *a) {
  __shared__ float s[B];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 256) {
    __syncthreads();
    a[threadIdx.x] = s[B - 1 - threadIdx.x];
  }
  a[B + threadIdx.x] = 0.0f;
}
__global__ void rows_of_block(float *a) {
  __shared__ float s[128];
  unsigned row;
  row = threadIdx.y;
  s[threadIdx.x + 32 * row] = a[threadIdx.x + 32 * row];
  if (row < 4 && threadIdx.x / 32 == 0) {
    __syncthreads();
    a[threadIdx.x + 32 * row] = s[127 - threadIdx.x - 32 * row];
  }
  a[128 + threadIdx.x + 32 * row] = 0.0f;
}
__global__ void bound_splits_block(float *a) {
  __shared__ float s[B];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 100) {
    __syncthreads();
    a[threadIdx.x] = s[B - 1 - threadIdx.x];
  }
  __syncthreads();
  a[B + threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *k = argv[1];
  float *a;
  cudaMalloc(&a, 4096 * sizeof(float));
  cudaMemset(a, 0, 4096 * sizeof(float));
  if (!strcmp(k, "stride_cancelled"))
    stride_cancelled<<<2, B>>>(a, 1000);
  else if (!strcmp(k, "stride_plain"))
    stride_plain<<<2, B>>>(a, 1000);
  else if (!strcmp(k, "stride_per_group"))
    stride_per_group<<<2, B>>>((int *)a, 300);
  else if (!strcmp(k, "block_stride_256"))
    block_stride<256><<<1, B>>>(a);
  else if (!strcmp(k, "block_stride_250"))
    block_stride<250><<<1, B>>>(a);
  else if (!strcmp(k, "stride_constant"))
    stride_constant<<<1, B>>>(a);
  else if (!strcmp(k, "vote_through_shared")) {
    // Columns 640 on are +inf: the scan from the end stops at 512.
    float h[1024];
    for (int i = 0; i < 1024; ++i)
      h[i] = i >= 640 ? INFINITY : 1.0f;
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    vote_through_shared<<<2, B>>>(a, a + 2048, 1024);
    cudaDeviceSynchronize();
    float r[2];
    cudaMemcpy(r, a + 2048, sizeof r, cudaMemcpyDeviceToHost);
    printf("vote_through_shared: KV_max %g %g (expected 768 768)\n", r[0],
           r[1]);
  } else if (!strcmp(k, "work_queue"))
    work_queue<<<4, B>>>(a, a + 2048, 6);
  else if (!strcmp(k, "bound_is_block"))
    bound_is_block<<<2, B>>>(a);
  else if (!strcmp(k, "rows_of_block"))
    rows_of_block<<<2, dim3(32, 4)>>>(a);
  else if (!strcmp(k, "bound_splits_block"))
    bound_splits_block<<<2, B>>>(a);
#ifdef WITH_CDP
  else if (!strcmp(k, "parent_launch"))
    parent_launch<<<1, 64>>>(a);
#endif
  else if (!strcmp(k, "grid_sync_even_blocks")) {
    void *args[] = {&a};
    cudaLaunchCooperativeKernel((void *)grid_sync_even_blocks, 4, 64, args);
  } else if (!strncmp(k, "grid_sync_block_stride_", 23)) {
    int n = atoi(k + 23);
    void *args[] = {&a, &n};
    cudaLaunchCooperativeKernel((void *)grid_sync_block_stride, 4, 64, args);
  } else if (!strcmp(k, "grid_sync_rank")) {
    void *args[] = {&a};
    cudaLaunchCooperativeKernel((void *)grid_sync_rank, 4, 64, args);
  } else if (!strcmp(k, "grid_sync_first_block_last")) {
    void *args[] = {&a};
    cudaLaunchCooperativeKernel((void *)grid_sync_first_block_last, 4, 64,
                                args);
  } else if (!strcmp(k, "grid_sync_argument")) {
    int n = 1;
    void *args[] = {&a, &n};
    cudaLaunchCooperativeKernel((void *)grid_sync_argument, 4, 64, args);
  } else if (!strcmp(k, "exit_neighbour"))
    return compare(k, [](float *a, float *b, int n, int f) {
      exit_neighbour<<<2, B>>>(a, b, n, f); }, 300);
  else if (!strcmp(k, "exit_mirror"))
    return compare(k, [](float *a, float *b, int n, int f) {
      exit_mirror<<<2, B>>>(a, b, n, f); }, 300);
  else if (!strcmp(k, "exit_loop_neighbour"))
    return compare(k, [](float *a, float *b, int n, int f) {
      exit_loop_neighbour<<<2, B>>>(a, b, n, f); }, 300);
  else if (!strcmp(k, "exit_loop_own_slot"))
    return compare(k, [](float *a, float *b, int n, int f) {
      exit_loop_own_slot<<<2, B>>>(a, b, n, f); }, 300);
  else if (!strcmp(k, "exit_loop_own_slot_sync")) {
    float *b;
    cudaMalloc(&b, 4096 * sizeof(float));
    exit_loop_own_slot<<<2, B>>>(a, b, 300, 0);
  } else if (!strcmp(k, "shared_round")) {
    // 4096 values k / 4096: each round drops the largest, to 0.5.
    std::vector<float> h(4096);
    for (int j = 0; j < 4096; ++j)
      h[j] = float(j) / 4096.0f;
    cudaMemcpy(a, h.data(), 4096 * sizeof(float), cudaMemcpyHostToDevice);
    float *out;
    cudaMalloc(&out, sizeof(float));
    shared_round<<<1, 1024>>>(a, 4096, out);
    float r = 0;
    cudaMemcpy(&r, out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("shared_round: %g rounds (expected 2048)\n", r);
  } else if (!strcmp(k, "scan_aggregate")) {
    // Every third of 100000 values kept: 33333 of them, each once.
    const int n = 100000;
    std::vector<float> h(n);
    for (int j = 0; j < n; ++j)
      h[j] = j % 3 == 0 && j ? 1.0f : 0.0f;
    float *in;
    int *out, *counter;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scan_aggregate<<<8, B>>>(in, n, out, counter);
    int total = 0;
    cudaMemcpy(&total, counter, sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<int> got(total > 0 && total <= n ? total : 0);
    cudaMemcpy(got.data(), out, got.size() * sizeof(int),
               cudaMemcpyDeviceToHost);
    std::vector<char> seen(n, 0);
    int wrong = 0;
    for (int v : got)
      wrong += v < 0 || v >= n || v % 3 != 0 || !v || seen[v]++;
    printf("scan_aggregate: %d kept, %d wrong (expected 33333 kept, 0 wrong)\n",
           total, wrong);
  } else if (!strcmp(k, "agent_flag")) {
    int *g;
    cudaMalloc(&g, 64 * 256 * 8 * sizeof(int));
    agent_flag<<<64, 256>>>(g);
  } else if (!strcmp(k, "exit_own_slot"))
    return compare(k, [](float *a, float *b, int n, int f) {
      exit_own_slot<<<2, B>>>(a, b, n, f); }, 300);
  else if (!strcmp(k, "exit_histogram")) {
    int n = 300, *in, *hist;
    std::vector<int> h(n);
    for (int j = 0; j < n; ++j)
      h[j] = (j * 7) % B;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&hist, B * sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    int total[2];
    for (int fixed = 1; fixed >= 0; --fixed) {
      cudaMemset(hist, 0, B * sizeof(int));
      exit_histogram<<<2, B>>>(in, hist, n, fixed);
      std::vector<int> out(B);
      cudaMemcpy(out.data(), hist, B * sizeof(int), cudaMemcpyDeviceToHost);
      total[fixed] = 0;
      for (int v : out)
        total[fixed] += v;
    }
    printf("%s: %d of %d items counted (%d without the exit)\n", k, total[0],
           n, total[1]);
    return total[0] == total[1] ? 0 : 1;
  } else
    return 2;
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", k, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
