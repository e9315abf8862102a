// Two more things nvcc's headers give and clang's CUDA wrapper headers do
// not (both met in llm.c): isfinite/isnan/isinf/signbit called unqualified in
// host code (nvcc's headers include <math.h>, which brings std's into the
// global namespace), and the cache-hinted loads and stores __ldca, __ldlu,
// __stwb, __stcg and __stcs, which clang's intrinsics header leaves out.
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_61,sm_90 %s -- 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// The same with the user's own <cmath> and <math.h> after the declarations.
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- -DUSER_MATH 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// Without the declarations clang rejects the file (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: error: no matching function for call to 'isfinite'
// CLANG-DAG: error: use of undeclared identifier '__stcs'
// CLANG-DAG: error: use of undeclared identifier '__ldlu'
#include <cuda_runtime.h>
#ifdef USER_MATH
#include <cmath>
#include <math.h>
#endif

template <class T> int countBad(const T *p, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    if (!isfinite(p[i]) || isnan(p[i]) || isinf(p[i]) || signbit(p[i]))
      c++;
  return c;
}

__global__ void kernel(float *out, const float *in, float4 *v, double *d) {
  float x = __ldlu(in + threadIdx.x) + __ldca(in);
  if (isfinite(x) && !isnan(d[0]) && !signbit(x))
    __stcs(out + threadIdx.x, x);
  __stcg(v + threadIdx.x, __ldca(v));
  __stwb(d, d[1]);
}

int main() {
  float f[2] = {1, 2};
  double g[2] = {1, 2};
  return countBad(f, 2) + countBad(g, 2);
}
