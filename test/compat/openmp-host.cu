// A CUDA file whose host code uses OpenMP, as nvcc builds it (-Xcompiler
// -fopenmp at the link): omp.h is found, the parse does not turn OpenMP on
// (no -fopenmp: the device analysis is the same), and the kernel is judged.
// REQUIRES: omp-header
// RUN: not %warplint --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- 2>&1 | FileCheck %s --implicit-check-not=clang-diagnostic-error
#include <omp.h>

__global__ void kernel(int *p) {
  // CHECK: openmp-host.cu:[[@LINE+1]]:10: error: '__shfl' was removed on sm_70 and later (target sm_80)
  p[0] = __shfl(p[0], 0);
}

int hostSide(int *devicePointers[], int gpus) {
  int threads = omp_get_max_threads();
#pragma omp parallel for num_threads(gpus)
  for (int i = 0; i < gpus; ++i)
    kernel<<<1, 32>>>(devicePointers[i]);
  return threads;
}
