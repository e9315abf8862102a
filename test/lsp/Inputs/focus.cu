__global__ void scale(float *a) {
  a[threadIdx.x * 2] = 0;
}
__global__ void legacy(float *a) {
  a[threadIdx.x] = __shfl_down(a[threadIdx.x], 1);
}
void launch(float *a) {
  scale<<<4096, 128>>>(a);
}
