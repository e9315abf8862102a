// The kernels of launcher.cu, which #includes this file after defining
// Sample and SCALE: on its own it does not compile.
__global__ void scale(Sample *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[i].value = __shfl(s[i].value, 0) * SCALE;
}
