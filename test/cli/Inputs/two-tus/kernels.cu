// A kernel file compiled on its own, and #included by launcher.cu (which
// launches 'transpose' with 16x16 blocks; it calls 'put') and by other.cu
// (which launches only 'scale').
__device__ void put(float *out, int x, int y, int H, float v) {
  out[x * H + y] = v;
}

__global__ void transpose(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y; if (x >= H) return;
  out[x * H + y] = in[y * H + x];
  put(out + H * H, x, y, H, in[y * H + x]);
}

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[2 * i] = 2.0f * in[2 * i];
}
