// A kernel launched from device code needs relocatable device code, which
// nvcc asks for with -rdc=true and clang with -fgpu-rdc; without it both
// refuse the file (cuda-samples' cdpBezierTessellation, linted without the
// flag its CMake build sets). The error stands, exit 2, and a warning says
// the file was analysed as with -fgpu-rdc: the findings are those of the
// code as its build compiles it, IR layer included (the second read of
// c[i].b below is removed by the optimiser, as nvcc removes it).
// REQUIRES: cuda-toolkit
// RUN: not %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// With the flag: the same findings, no error, no warning of warplint's.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -fgpu-rdc 2>&1 | FileCheck %s --check-prefix=RDC --implicit-check-not=warplint:
// With another error beside it: no second parse, the AST's findings.
// RUN: not %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -DBROKEN 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN-NOT: analysed as with -fgpu-rdc
// BROKEN: device-launch-without-rdc.cu:[[@LINE+18]]:{{[0-9]+}}: warning: each warp load of 'c[i].b'
// BROKEN: device-launch-without-rdc.cu:[[@LINE+18]]:{{[0-9]+}}: warning: each warp load of 'c[i].b'

__global__ void child(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.0f;
}

struct Curve {
  float2 a, b, c;
};
__device__ float len(float2 v) { return sqrtf(v.x * v.x + v.y * v.y); }

// CHECK: warplint: warning: {{.*}}device-launch-without-rdc.cu:[[@LINE+13]]:{{[0-9]+}}: a kernel launched from device code needs relocatable device code (nvcc -rdc=true, clang -fgpu-rdc), which the compile command does not ask for; the file was analysed as with -fgpu-rdc
// CHECK: device-launch-without-rdc.cu:[[@LINE+12]]:{{[0-9]+}}: error: kernel launch from __device__ or __global__ function requires relocatable device code
__global__ void parent(const Curve *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 d = c[i].b;
  out[i] = len(d) / len(c[i].b);
  // CHECK: device-launch-without-rdc.cu:[[@LINE-2]]:14: warning: each warp load of 'c[i].b' touches 24 32-byte sectors for 256 useful bytes (33% efficiency)
  // RDC: device-launch-without-rdc.cu:[[@LINE-3]]:14: warning: each warp load of 'c[i].b' touches 24 32-byte sectors for 256 useful bytes (33% efficiency)
  // CHECK: warplint: error: {{.*}}device-launch-without-rdc.cu:[[@LINE+5]]:{{[0-9]+}}: kernel launch from __device__ or __global__ function requires relocatable device code
#ifdef BROKEN
  undeclared();
#endif
  if (i == 0)
    child<<<n / 32, 32>>>(out, n);
}
