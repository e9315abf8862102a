// Barriers for the pass-plugin test: one reached by part of the block
// through a helper, one reached by all.
__device__ void helper(float *s) {
  s[threadIdx.x] = 0;
  __syncthreads();
}

__global__ void partial(float *a) {
  __shared__ float s[256];
  if (a[threadIdx.x] > 0)
    helper(s);
  a[threadIdx.x] = s[threadIdx.x];
}

__global__ void whole(float *a, int n) {
  __shared__ float s[256];
  for (int i = 0; i < n; ++i)
    helper(s);
  a[threadIdx.x] = s[threadIdx.x];
}
