// A kernel nvcc compiles: both routes count its registers.
__global__ void scale(float *p, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= a;
}

void run(float *p, int n) { scale<<<(n + 255) / 256, 256>>>(p, 2.f, n); }
