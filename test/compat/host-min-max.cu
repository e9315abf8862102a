// nvcc's headers declare min() and max() __host__ __device__; clang's CUDA
// wrapper makes them __device__ only. A host function that calls them parses,
// device calls resolve as before, and std::min, ::min and an unqualified min
// under 'using namespace std' all stay unambiguous on either side.
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// RUN: %warplint --cuda-path=%cudapath --checks='-*,warp-legacy-intrinsic' --arch=sm_61,sm_90 %s -- 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// Without the declarations the host calls fail the parse (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: no matching function for call to 'min'
// And with them clang alone accepts it too, exit 0.
// RUN: %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version -include %share/include/compat/warplint_nvcc_compat.h %s
#include <algorithm>
#include <cstddef>

using namespace std;

__device__ int deviceSide(int a, unsigned b) {
  return min(a, 3) + max(b, 2u) + ::min(a, a);
}

__host__ __device__ float bothSides(float a) {
  return min(a, 1.f) + ::max(a, 2.0f);
}

__global__ void kernel(int *p, int n) {
  p[0] = min(p[1], n);
  p[2] = max(p[3], 4u);
}

int hostSide(int a, int b, unsigned u, long l, float f, double d,
             std::size_t s) {
  int r = min(a, b) + max(a, b) + static_cast<int>(max(u, 2u));
  r += static_cast<int>(min(l, 3L) + max(f, 2.f) + min(d, 1.0) + min(f, d));
  r += static_cast<int>(min(s, static_cast<std::size_t>(4)));
  return r + std::min(a, b) + std::max(1, 2) + ::min(a, b) + ::max(u, 1u);
}
