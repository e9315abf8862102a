// A second file for codegen-failure.cu's run of two files: its IR layer
// runs.
__global__ void other(float *a, const float *b, int n) {
  float v = b[threadIdx.x];
  if (threadIdx.x & 1) {
    for (int k = 0; k < n; ++k)
      v = v * b[k] + 1.0f;
  }
  a[threadIdx.x] = v;
}
