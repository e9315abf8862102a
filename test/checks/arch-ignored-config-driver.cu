// The driver API's configuration calls, as the runtime's.
// REQUIRES: cuda-toolkit
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_61 %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{note|warning|error}}:'
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_80 %s -- | FileCheck %s --check-prefix=SM80 --allow-empty --implicit-check-not='{{note|warning|error}}:'
#include <cuda.h>

void configure(CUfunction f) {
  cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1);
  // SM61: :[[@LINE-1]]:3: note: 'cuCtxSetCacheConfig' asks for CU_FUNC_CACHE_PREFER_L1, which has no effect on sm_61: shared memory there is dedicated, 96 KB per SM whatever the preference
  cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_SHARED);
  // SM61: :[[@LINE-1]]:3: note: 'cuFuncSetCacheConfig' asks for CU_FUNC_CACHE_PREFER_SHARED, which has no effect on sm_61
  cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50);
  // SM61: :[[@LINE-1]]:3: note: 'cuFuncSetAttribute' sets the preferred shared-memory carveout, which has no effect on sm_61
  cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_NONE);
  cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536);
}

// A host template: judged once per call site.
template <class T> void prefer_l1(T *kernel) {
  cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferL1);
  // SM61: :[[@LINE-1]]:3: note: 'cudaFuncSetCacheConfig' asks for cudaFuncCachePreferL1, which has no effect on sm_61
}
__global__ void k(float *a) { a[0] = 0; }
__global__ void k2(int *a) { a[0] = 0; }
void setup() {
  prefer_l1(k);
  prefer_l1(k2);
}
// SM80-NOT: note:
