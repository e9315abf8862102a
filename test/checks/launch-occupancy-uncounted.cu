// RUN: rm -rf %t && mkdir -p %t
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t %s -- | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --ptxas=false %s -- | FileCheck %s --check-prefix=NOPTXAS --allow-empty --implicit-check-not='{{warning|error|note}}:'
// A launch whose kernel's registers the run tried to count and could not,
// that shared memory alone does not limit but registers could, is named
// in one note of the file: here the fake ptxas reports no 'uncounted'
// (as when ptxas fails or code generation does). Where no route runs
// (--ptxas=false, no toolkit) the user asked for none, and nothing is
// said; a kernel no code can be generated for (a legacy shuffle on sm_70
// and later, which nvcc refuses too) has its own error and no note.
// NOPTXAS-NOT: note

__global__ void uncounted(float *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

__global__ void legacy_sum(float *a) {
  float v = a[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  if (threadIdx.x % 32 == 0)
    a[blockIdx.x] = v;
}

void run(float *a, int n) {
  uncounted<<<n, 256>>>(a);
  // CHECK: :[[@LINE-1]]:18: note: 'uncounted' is judged on sm_80 without its registers (registers not counted: ptxas did not compile 'uncounted' from this file): shared memory alone does not limit its occupancy, and the registers, which could, are unknown; the build's object, or --registers-from=nvcc, counts them
  legacy_sum<<<n, 256>>>(a);
}
