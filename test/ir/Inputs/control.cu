__global__ void early_return(int n) {
  if (threadIdx.x >= n)
    return;
  __syncthreads();
}

// control.ll's debug locations point here: line 3 and line 12 column 5 are
// return statements.
__device__ void helper_return(int n) {
  if (threadIdx.x >= n)
  {
    return;
  }
  __syncthreads();
}
