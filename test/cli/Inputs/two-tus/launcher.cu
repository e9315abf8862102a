#include <cuda_runtime.h>
#include "kernels.cu"

int main() {
  float *a, *b;
  transpose<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);
  return 0;
}
