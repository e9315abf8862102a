#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

__global__ void block_sum(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, 128>;
  __shared__ typename BlockReduce::TempStorage temp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int sum = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

int total(const thrust::device_vector<int> &v) {
  return thrust::reduce(v.begin(), v.end());
}
