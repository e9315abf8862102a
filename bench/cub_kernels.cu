// A 500-line CUB kernel file for bench/lsp_latency.py: what a CUDA
// programmer edits in an editor. Block- and warp-wide collectives (load,
// store, reduce, scan, radix sort, histogram, exchange, discontinuity) in
// templated kernels, device-wide algorithms called from host code, and the
// launches, with a few of the findings warplint reports (a legacy shuffle,
// a barrier under a thread-dependent branch, a block size that is not a
// multiple of the warp size) so that the diagnostics are not empty.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      return err_;                                                             \
    }                                                                          \
  } while (0)

namespace bench {

// Tile reduction and scan of float: load, reduce, scan, store.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
reduce_scan_f32(const float *in, float *out, float *block_sums, int n) {
  using Load = cub::BlockLoad<float, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<float, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<float, Threads>;
  using Scan = cub::BlockScan<float, Threads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  const int tile = blockIdx.x * Threads * Items;
  float items[Items];
  Load(temp.load).Load(in + tile, items, n - tile, float(0));
  __syncthreads();
  float sum = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + tile, items, n - tile);
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = sum;
}

// Warp-level reduction of float with a per-warp result.
template <int Threads>
__global__ void warp_sums_f32(const float *in, float *out, int n) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage temp[Threads / 32];
  const int i = blockIdx.x * Threads + threadIdx.x;
  const int warp = threadIdx.x / 32;
  float v = i < n ? in[i] : float(0);
  float s = WarpReduce(temp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (Threads / 32) + warp] = s;
}

// Tile reduction and scan of int: load, reduce, scan, store.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
reduce_scan_i32(const int *in, int *out, int *block_sums, int n) {
  using Load = cub::BlockLoad<int, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<int, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, Threads>;
  using Scan = cub::BlockScan<int, Threads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  const int tile = blockIdx.x * Threads * Items;
  int items[Items];
  Load(temp.load).Load(in + tile, items, n - tile, int(0));
  __syncthreads();
  int sum = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + tile, items, n - tile);
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = sum;
}

// Warp-level reduction of int with a per-warp result.
template <int Threads>
__global__ void warp_sums_i32(const int *in, int *out, int n) {
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename WarpReduce::TempStorage temp[Threads / 32];
  const int i = blockIdx.x * Threads + threadIdx.x;
  const int warp = threadIdx.x / 32;
  int v = i < n ? in[i] : int(0);
  int s = WarpReduce(temp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (Threads / 32) + warp] = s;
}

// Tile reduction and scan of double: load, reduce, scan, store.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
reduce_scan_f64(const double *in, double *out, double *block_sums, int n) {
  using Load = cub::BlockLoad<double, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<double, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<double, Threads>;
  using Scan = cub::BlockScan<double, Threads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  const int tile = blockIdx.x * Threads * Items;
  double items[Items];
  Load(temp.load).Load(in + tile, items, n - tile, double(0));
  __syncthreads();
  double sum = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + tile, items, n - tile);
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = sum;
}

// Warp-level reduction of double with a per-warp result.
template <int Threads>
__global__ void warp_sums_f64(const double *in, double *out, int n) {
  using WarpReduce = cub::WarpReduce<double>;
  __shared__ typename WarpReduce::TempStorage temp[Threads / 32];
  const int i = blockIdx.x * Threads + threadIdx.x;
  const int warp = threadIdx.x / 32;
  double v = i < n ? in[i] : double(0);
  double s = WarpReduce(temp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (Threads / 32) + warp] = s;
}

// Tile reduction and scan of unsigned: load, reduce, scan, store.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
reduce_scan_u32(const unsigned *in, unsigned *out, unsigned *block_sums, int n) {
  using Load = cub::BlockLoad<unsigned, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<unsigned, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<unsigned, Threads>;
  using Scan = cub::BlockScan<unsigned, Threads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  const int tile = blockIdx.x * Threads * Items;
  unsigned items[Items];
  Load(temp.load).Load(in + tile, items, n - tile, unsigned(0));
  __syncthreads();
  unsigned sum = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + tile, items, n - tile);
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = sum;
}

// Warp-level reduction of unsigned with a per-warp result.
template <int Threads>
__global__ void warp_sums_u32(const unsigned *in, unsigned *out, int n) {
  using WarpReduce = cub::WarpReduce<unsigned>;
  __shared__ typename WarpReduce::TempStorage temp[Threads / 32];
  const int i = blockIdx.x * Threads + threadIdx.x;
  const int warp = threadIdx.x / 32;
  unsigned v = i < n ? in[i] : unsigned(0);
  unsigned s = WarpReduce(temp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (Threads / 32) + warp] = s;
}

// Radix sort of keys with values, one tile per block.
template <typename Key, typename Value, int Threads, int Items>
__global__ void sort_pairs(Key *keys, Value *values, int n) {
  using Sort = cub::BlockRadixSort<Key, Threads, Items, Value>;
  using LoadK = cub::BlockLoad<Key, Threads, Items, cub::BLOCK_LOAD_TRANSPOSE>;
  using LoadV = cub::BlockLoad<Value, Threads, Items, cub::BLOCK_LOAD_TRANSPOSE>;
  using StoreK = cub::BlockStore<Key, Threads, Items, cub::BLOCK_STORE_TRANSPOSE>;
  using StoreV = cub::BlockStore<Value, Threads, Items, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename LoadK::TempStorage load_k;
    typename LoadV::TempStorage load_v;
    typename StoreK::TempStorage store_k;
    typename StoreV::TempStorage store_v;
  } temp;
  const int tile = blockIdx.x * Threads * Items;
  Key k[Items];
  Value v[Items];
  LoadK(temp.load_k).Load(keys + tile, k, n - tile);
  __syncthreads();
  LoadV(temp.load_v).Load(values + tile, v, n - tile);
  __syncthreads();
  Sort(temp.sort).Sort(k, v);
  __syncthreads();
  StoreK(temp.store_k).Store(keys + tile, k, n - tile);
  __syncthreads();
  StoreV(temp.store_v).Store(values + tile, v, n - tile);
}

// 256-bin histogram of bytes per block, merged with atomics.
template <int Threads, int Items>
__global__ void histogram256(const unsigned char *data, unsigned *bins, int n) {
  using Histogram = cub::BlockHistogram<unsigned char, Threads, Items, 256>;
  __shared__ typename Histogram::TempStorage temp;
  __shared__ unsigned local[256];
  const int tile = blockIdx.x * Threads * Items;
  unsigned char items[Items];
  for (int i = 0; i < Items; ++i) {
    int at = tile + threadIdx.x * Items + i;
    items[i] = at < n ? data[at] : 0;
  }
  Histogram(temp).Histogram(items, local);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += Threads)
    atomicAdd(&bins[b], local[b]);
}

struct NotEqual {
  __device__ bool operator()(int a, int b) const { return a != b; }
};

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// Run-length heads: flags where a sorted key differs from its predecessor.
template <int Threads, int Items>
__global__ void segment_heads(const int *keys, int *flags, int n) {
  using Disc = cub::BlockDiscontinuity<int, Threads>;
  using Load = cub::BlockLoad<int, Threads, Items, cub::BLOCK_LOAD_DIRECT>;
  __shared__ typename Disc::TempStorage disc;
  __shared__ typename Load::TempStorage load;
  const int tile = blockIdx.x * Threads * Items;
  int k[Items];
  int heads[Items];
  Load(load).Load(keys + tile, k, n - tile, 0);
  __syncthreads();
  Disc(disc).FlagHeads(heads, k, NotEqual());
  for (int i = 0; i < Items; ++i) {
    int at = tile + threadIdx.x * Items + i;
    if (at < n)
      flags[at] = heads[i];
  }
}

// Blocked to striped arrangement through shared memory.
template <int Threads, int Items>
__global__ void to_striped(const float *in, float *out) {
  using Exchange = cub::BlockExchange<float, Threads, Items>;
  __shared__ typename Exchange::TempStorage temp;
  const int tile = blockIdx.x * Threads * Items;
  float items[Items];
  cub::LoadDirectBlocked(threadIdx.x, in + tile, items);
  Exchange(temp).BlockedToStriped(items);
  cub::StoreDirectStriped<Threads>(threadIdx.x, out + tile, items);
}


// Row softmax: block-wide max and sum of each row (one block per row).
template <int Threads>
__global__ void softmax_rows(const float *in, float *out, int cols) {
  using Reduce = cub::BlockReduce<float, Threads>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ float row_max, row_sum;
  const float *row = in + static_cast<size_t>(blockIdx.x) * cols;
  float *dst = out + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += Threads)
    m = fmaxf(m, row[c]);
  float block_max = Reduce(temp).Reduce(m, MaxOp());
  if (threadIdx.x == 0)
    row_max = block_max;
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += Threads)
    s += __expf(row[c] - row_max);
  float block_sum = Reduce(temp).Sum(s);
  if (threadIdx.x == 0)
    row_sum = block_sum;
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += Threads)
    dst[c] = __expf(row[c] - row_max) / row_sum;
}

// Tiled transpose through padded shared memory (no bank conflicts).
template <int Tile, int Rows>
__global__ void transpose(const float *in, float *out, int width, int height) {
  __shared__ float tile[Tile][Tile + 1];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += Rows)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += Rows)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Stream compaction inside a block: scan of the keep flags gives each kept
// element its slot; one atomic per block reserves the output range.
template <int Threads>
__global__ void compact_positive(const float *in, float *out, int *out_count,
                                 int n) {
  using Scan = cub::BlockScan<int, Threads>;
  __shared__ typename Scan::TempStorage temp;
  __shared__ int base;
  const int i = blockIdx.x * Threads + threadIdx.x;
  const float v = i < n ? in[i] : 0.0f;
  const int keep = v > 0.0f;
  int slot, total;
  Scan(temp).ExclusiveSum(keep, slot, total);
  if (threadIdx.x == 0)
    base = atomicAdd(out_count, total);
  __syncthreads();
  if (keep)
    out[base + slot] = v;
}


// 1D stencil of radius 3 with the halo staged in shared memory.
template <int Threads>
__global__ void stencil7(const float *in, float *out, int n) {
  constexpr int R = 3;
  __shared__ float s[Threads + 2 * R];
  const int i = blockIdx.x * Threads + threadIdx.x;
  const int l = threadIdx.x + R;
  s[l] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < R) {
    s[l - R] = i >= R ? in[i - R] : 0.0f;
    s[l + Threads] = i + Threads < n ? in[i + Threads] : 0.0f;
  }
  __syncthreads();
  if (i >= n)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -R; k <= R; ++k)
    acc += s[l + k];
  out[i] = acc / (2 * R + 1);
}

// Dot product in double: per-block partial sums, then one atomic each.
template <int Threads>
__global__ void dot_f64(const double *x, const double *y, double *result,
                        int n) {
  using Reduce = cub::BlockReduce<double, Threads>;
  __shared__ typename Reduce::TempStorage temp;
  double acc = 0.0;
  for (int i = blockIdx.x * Threads + threadIdx.x; i < n;
       i += Threads * gridDim.x)
    acc += x[i] * y[i];
  double block = Reduce(temp).Sum(acc);
  if (threadIdx.x == 0)
    atomicAdd(result, block);
}

// Hand-written warp reduction with a legacy shuffle (found: removed on sm_70+).
__global__ void legacy_warp_sum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

// A barrier only the first half of the block reaches (found).
__global__ void half_block_barrier(float *data) {
  __shared__ float tile[256];
  tile[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x < 128) {
    tile[threadIdx.x] += tile[threadIdx.x + 128];
    __syncthreads();
  }
  data[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x];
}

// Grid-stride SAXPY, the reference for launch configuration.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// Device-wide algorithms: the two-phase temporary-storage protocol.
template <typename T>
cudaError_t device_sum(const T *in, T *out, int n, cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  CHECK_CUDA(cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream));
  CHECK_CUDA(cudaMallocAsync(&temp, bytes, stream));
  CHECK_CUDA(cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream));
  return cudaFreeAsync(temp, stream);
}

template <typename T>
cudaError_t device_scan(const T *in, T *out, int n, cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  CHECK_CUDA(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream));
  CHECK_CUDA(cudaMallocAsync(&temp, bytes, stream));
  CHECK_CUDA(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream));
  return cudaFreeAsync(temp, stream);
}

cudaError_t device_sort(const unsigned *keys_in, unsigned *keys_out,
                        const int *vals_in, int *vals_out, int n,
                        cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out,
                                             vals_in, vals_out, n, 0, 32,
                                             stream));
  CHECK_CUDA(cudaMallocAsync(&temp, bytes, stream));
  CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out,
                                             vals_in, vals_out, n, 0, 32,
                                             stream));
  return cudaFreeAsync(temp, stream);
}

cudaError_t device_select(const int *in, int *out, int *count, int n,
                          cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  CHECK_CUDA(cub::DeviceSelect::Unique(temp, bytes, in, out, count, n, stream));
  CHECK_CUDA(cudaMallocAsync(&temp, bytes, stream));
  CHECK_CUDA(cub::DeviceSelect::Unique(temp, bytes, in, out, count, n, stream));
  return cudaFreeAsync(temp, stream);
}

// The launches of every kernel above.
cudaError_t run_all(int n, cudaStream_t stream) {
  float *f = nullptr, *g = nullptr;
  int *ints = nullptr, *flags = nullptr, *count = nullptr;
  double *d = nullptr;
  unsigned *u = nullptr, *bins = nullptr;
  unsigned char *bytes = nullptr;
  CHECK_CUDA(cudaMallocAsync(&f, n * sizeof(float), stream));
  CHECK_CUDA(cudaMallocAsync(&g, n * sizeof(float), stream));
  CHECK_CUDA(cudaMallocAsync(&ints, n * sizeof(int), stream));
  CHECK_CUDA(cudaMallocAsync(&flags, n * sizeof(int), stream));
  CHECK_CUDA(cudaMallocAsync(&count, sizeof(int), stream));
  CHECK_CUDA(cudaMallocAsync(&d, n * sizeof(double), stream));
  CHECK_CUDA(cudaMallocAsync(&u, n * sizeof(unsigned), stream));
  CHECK_CUDA(cudaMallocAsync(&bins, 256 * sizeof(unsigned), stream));
  CHECK_CUDA(cudaMallocAsync(&bytes, n, stream));

  const int tiles128x4 = (n + 511) / 512;
  const int tiles256x2 = (n + 511) / 512;
  const int tiles256 = (n + 255) / 256;
  reduce_scan_f32<128, 4><<<tiles128x4, 128, 0, stream>>>(f, g, f, n);
  reduce_scan_i32<256, 2><<<tiles256x2, 256, 0, stream>>>(ints, flags, ints, n);
  reduce_scan_f64<128, 4><<<tiles128x4, 128, 0, stream>>>(d, d, d, n);
  reduce_scan_u32<256, 2><<<tiles256x2, 256, 0, stream>>>(u, u, u, n);
  warp_sums_f32<256><<<tiles256, 256, 0, stream>>>(f, g, n);
  warp_sums_i32<256><<<tiles256, 256, 0, stream>>>(ints, flags, n);
  warp_sums_f64<128><<<(n + 127) / 128, 128, 0, stream>>>(d, d, n);
  warp_sums_u32<128><<<(n + 127) / 128, 128, 0, stream>>>(u, u, n);
  sort_pairs<unsigned, int, 128, 4><<<tiles128x4, 128, 0, stream>>>(u, ints, n);
  histogram256<128, 4><<<tiles128x4, 128, 0, stream>>>(bytes, bins, n);
  segment_heads<128, 4><<<tiles128x4, 128, 0, stream>>>(ints, flags, n);
  to_striped<128, 4><<<tiles128x4, 128, 0, stream>>>(f, g);
  legacy_warp_sum<<<tiles256, 256, 0, stream>>>(f, g, n);
  half_block_barrier<<<n / 256, 256, 0, stream>>>(f);
  saxpy<<<(n + 99) / 100, 100, 0, stream>>>(n, 2.0f, f, g);
  softmax_rows<256><<<n / 1024, 256, 0, stream>>>(f, g, 1024);
  transpose<32, 8><<<dim3(32, n / 1024), dim3(32, 8), 0, stream>>>(f, g, 1024, n / 1024);
  compact_positive<256><<<tiles256, 256, 0, stream>>>(f, g, count, n);
  stencil7<256><<<tiles256, 256, 0, stream>>>(f, g, n);
  dot_f64<256><<<160, 256, 0, stream>>>(d, d, d, n);
  CHECK_CUDA(cudaGetLastError());

  CHECK_CUDA(device_sum(f, g, n, stream));
  CHECK_CUDA(device_sum(ints, flags, n, stream));
  CHECK_CUDA(device_scan(f, g, n, stream));
  CHECK_CUDA(device_scan(d, d, n, stream));
  CHECK_CUDA(device_sort(u, u, ints, flags, n, stream));
  CHECK_CUDA(device_select(ints, flags, count, n, stream));

  for (void *p : std::vector<void *>{f, g, ints, flags, count, d, u, bins, bytes})
    CHECK_CUDA(cudaFreeAsync(p, stream));
  return cudaStreamSynchronize(stream);
}

} // namespace bench

int main() {
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  cudaError_t err = bench::run_all(1 << 20, stream);
  std::printf("%s\n", cudaGetErrorString(err));
  cudaStreamDestroy(stream);
  return err == cudaSuccess ? 0 : 1;
}
