// A project header named cuda.h on the -I path (Rodinia's util/cuda/cuda.h,
// compiled with -I of its own folder): clang's CUDA wrapper header includes
// "cuda.h" for CUDA_VERSION and would find the project's, failing with
// "cuda.h did not define CUDA_VERSION"; nvcc never includes one by itself.
// The wrapper gets the toolkit's, the file its own (setdevice), and the
// kernel is still judged.
// REQUIRES: cuda-toolkit
// RUN: not %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- -I%S/Inputs/own-cuda-h 2>&1 | FileCheck %s --implicit-check-not=error:
// Plain clang with the same -I fails (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version -I%S/Inputs/own-cuda-h %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: "cuda.h did not define CUDA_VERSION"
// A second run is answered from the result cache: the in-memory header is
// not a dependency that cannot be read back.
// RUN: rm -rf %t.cache && not %warplint --cache-dir=%t.cache --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- -I%S/Inputs/own-cuda-h > /dev/null 2>&1
// RUN: ls %t.cache/*/*.json | count 1
#include "cuda.h"

void setdevice(void) { cudaSetDevice(0); }

__global__ void k(int *out, int v) {
  // CHECK: project-cuda-h.cu:[[@LINE+1]]:12: error: '__any' {{.*}} [warp-legacy-intrinsic]
  out[0] = __any(v);
}
