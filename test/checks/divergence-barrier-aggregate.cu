// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,divergence-barrier' --arch=sm_80 --ir-layer=false %s -- -std=c++17 | count 0
// (The AST layer takes an output other than block_aggregate as unknown and
// says nothing of own_count; the IR layer sees the per-thread load inline.)
// A block scan's aggregate is the same in every thread (CUB's
// BlockScan::ExclusiveSum(input, output, block_aggregate)): a running count
// of it is a uniform loop test.
struct BlockScanLike {
  int *tmp;
  __device__ void ExclusiveSum(int in, int &out, int &block_aggregate) {
    tmp[threadIdx.x] = in;
    __syncthreads();
    out = threadIdx.x ? tmp[threadIdx.x - 1] : 0;
    block_aggregate = tmp[blockDim.x - 1];
    __syncthreads();
  }
  __device__ void ExclusiveSumMine(int in, int &out, int &mine) {
    tmp[threadIdx.x] = in;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached by only part of the thread block: it is control-dependent on a thread-dependent branch; this is undefined b{{.*}}
    // CHECK: :[[@LINE+28]]:3: note: the branch that splits the block
    // CHECK: :[[@LINE+29]]:24: note: called from 'own_count' here
    out = threadIdx.x ? tmp[threadIdx.x - 1] : 0;
    mine = tmp[threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' may be reached by only part of the thread block: it is control-dependent on a thread-dependent branch; this is undefined b{{.*}}
    // CHECK: :[[@LINE+22]]:3: note: the branch that splits the block
    // CHECK: :[[@LINE+23]]:24: note: called from 'own_count' here
  }
};

__global__ void aggregate_count(const int *in, int *out) {
  __shared__ int tmp[1024];
  int found = 0, round = 0;
  while (found < 3) {
    int part, total;
    BlockScanLike{tmp}.ExclusiveSum(in[round * blockDim.x + threadIdx.x] > 0,
                                    part, total);
    found += total;
    ++round;
  }
  out[threadIdx.x] = round;
}

// The same look through an output that is each thread's own.
__global__ void own_count(const int *in, int *out) {
  __shared__ int tmp[1024];
  int found = 0, round = 0;
  while (found < 3) {
    int part, mine;
    BlockScanLike{tmp}.ExclusiveSumMine(in[round * blockDim.x + threadIdx.x],
                                        part, mine);
    found += mine;
    ++round;
  }
  out[threadIdx.x] = round;
}
