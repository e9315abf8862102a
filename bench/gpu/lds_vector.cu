// Shared-memory pairs a lane reads together: whether ptxas makes them one
// 64- or 128-bit LDS in the SASS (run_lds_vector.sh greps cuobjdump -sass).
// memory-shared-bank-conflict judges such a group at its merged width
// where the array is declared so aligned or is the function's only
// __shared__ array.
__global__ void only_array_pair(float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = t;
  __syncthreads();
  out[t] = s[2 * t] + s[2 * t + 1];
}
__global__ void second_array_pair(float *out) {
  __shared__ float a[33];
  __shared__ float s[64];
  int t = threadIdx.x;
  a[t] = t;
  s[t] = t;
  s[t + 32] = t;
  __syncthreads();
  out[t] = s[2 * t] + s[2 * t + 1] + a[t + 1];
}
__global__ void only_array_quad(float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i)
    s[i * 256 + t] = t;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < 4; ++i)
    v += s[t * 4 + i] * i;
  out[t] = v;
}
__global__ void double_pair(double *out) {
  __shared__ double d[64];
  int t = threadIdx.x;
  d[t] = t;
  d[t + 32] = t;
  __syncthreads();
  out[t] = d[2 * t] + d[2 * t + 1];
}
