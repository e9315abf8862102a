// A CUB/Thrust-heavy translation unit for bench/speed.py: block-wide
// collectives (load, radix sort, scan, reduce, store) in a templated kernel
// instantiated for several types, plus Thrust algorithms on the host side.
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

template <typename T, int Threads, int Items>
__global__ void sort_scan_reduce(const T *in, T *out, T *sums, int n) {
  using Load = cub::BlockLoad<T, Threads, Items, cub::BLOCK_LOAD_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<T, Threads, Items>;
  using Scan = cub::BlockScan<T, Threads>;
  using Reduce = cub::BlockReduce<T, Threads>;
  using Store = cub::BlockStore<T, Threads, Items, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
    typename Store::TempStorage store;
  } temp;

  int offset = blockIdx.x * Threads * Items;
  T items[Items];
  Load(temp.load).Load(in + offset, items, n - offset, T(0));
  __syncthreads();
  Sort(temp.sort).Sort(items);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(items, items);
  __syncthreads();
  T total = Reduce(temp.reduce).Sum(items[Items - 1]);
  __syncthreads();
  Store(temp.store).Store(out + offset, items, n - offset);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = total;
}

template __global__ void sort_scan_reduce<int, 128, 4>(const int *, int *, int *, int);
template __global__ void sort_scan_reduce<float, 256, 2>(const float *, float *, float *, int);
template __global__ void sort_scan_reduce<unsigned long long, 64, 8>(
    const unsigned long long *, unsigned long long *, unsigned long long *, int);

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float sum_of_squares(thrust::device_vector<float> &v) {
  thrust::sort(v.begin(), v.end());
  thrust::transform(v.begin(), v.end(), v.begin(), square());
  return thrust::reduce(v.begin(), v.end());
}
