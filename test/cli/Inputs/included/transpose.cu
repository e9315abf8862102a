// A kernel file, #included by launcher.cu, which launches it.
__global__ void transpose(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y; if (x >= H) return;
  out[x * H + y] = in[y * H + x];
}
