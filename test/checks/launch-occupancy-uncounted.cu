// RUN: rm -rf %t && mkdir -p %t
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --nvcc=%S/Inputs/fake-nvcc --cache-dir=%t %s -- | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,launch-occupancy' --arch=sm_80 --ptxas=false %s -- | FileCheck %s --check-prefix=NOPTXAS --allow-empty --implicit-check-not='{{warning|error|note}}:'
// A launch whose kernel's registers warplint's own route left out where
// nvcc's would count them (here: a kernel over the size budget), that
// shared memory alone does not limit but registers could, is named in one
// note of the file. Where no route runs (--ptxas=false, no toolkit) the
// user asked for none, and nothing is said; a kernel no code can be
// generated for (a legacy shuffle on sm_70 and later, which nvcc refuses
// too) has its own error and no note; a kernel that ptxas merely does not
// report (the fake ptxas here, or a kernel of another file) is not named.
// NOPTXAS-NOT: note

__global__ void huge(float *a, const float *b) {
  float acc = a[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int i = 0; i < 1500; ++i)
    acc = acc * b[i] + b[i + 1] * acc;
  a[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void unreported(float *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

__global__ void legacy_sum(float *a) {
  float v = a[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  if (threadIdx.x % 32 == 0)
    a[blockIdx.x] = v;
}

void run(float *a, const float *b, int n) {
  huge<<<n, 256>>>(a, b);
  // CHECK: :[[@LINE-1]]:13: note: 'huge' is judged on sm_80 without its registers (registers not counted: the kernel is {{[0-9]+}} LLVM instructions after -O3, more than the 4000 warplint compiles for its registers (--registers-from=nvcc counts them)): shared memory alone does not limit its occupancy, and the registers, which could, are unknown; the build's object, or --registers-from=nvcc, counts them
  unreported<<<n, 256>>>(a);
  legacy_sum<<<n, 256>>>(a);
}
