#include <cuda_runtime.h>

__global__ void good(float *out, float x) {
  *out = __shfl_xor(x, 1);
}

void host_side() {
  undeclared_function(42);
}
