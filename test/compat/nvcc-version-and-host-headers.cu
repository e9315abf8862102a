// Two more things nvcc gives every CUDA file and clang does not: its version
// macros (__CUDACC_VER_MAJOR__ ...: llm.c's common.h defines its own __ldcs
// "for older nvcc" when __CUDACC_VER_MAJOR__ < 12, which clang read as
// 0 < 12, colliding with the toolkit's on every target below sm_80), and
// <time.h> and <string.h> for host code (llm.c's permute.cu calls clock()).
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_75,sm_80 %s -- 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// Without them clang rejects the file (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_75 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: error: {{.*}}clock
// CLANG-DAG: error: use of undeclared identifier '__CUDACC_VER_MAJOR__'
// CLANG-DAG: error: redefinition of '__ldcs'
#include <cuda_runtime.h>

static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 ==
                  CUDA_VERSION,
              "the version of nvcc 13");

#if __CUDACC_VER_MAJOR__ < 12 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// What an old nvcc lacked: a second definition of the toolkit's own.
__device__ float4 __ldcs(const float4 *p) { return *p; }
#endif

__global__ void k(float4 *out, const float4 *in) {
  out[threadIdx.x] = __ldcs(in + threadIdx.x);
}

int main() {
  clock_t start = clock();
  char buf[8];
  memset(buf, 0, sizeof buf);
  return int(clock() - start) + int(strlen(buf));
}
