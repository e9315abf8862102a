#include <vendor.h>

__global__ void rows(float *p) {
  p[vendor_row(32)] = 0.f;
}

__global__ void scaled(float *p) {
  p[vendor_scale(blockIdx.x * blockDim.x + threadIdx.x)] = 1.f;
}

void run(float *p, int n) {
  vendor_setup();
  rows<<<n / 256, 256>>>(p);
  scaled<<<n / 256, 256>>>(p);
}
