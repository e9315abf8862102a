// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_52 %s -- | FileCheck %s --check-prefix=SM52 --implicit-check-not='{{note|warning|error}}:'
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_61 %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{note|warning|error}}:'
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_75 %s -- | FileCheck %s --check-prefix=SM75 --implicit-check-not='{{note|warning|error}}:'
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_80 %s -- | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{note|warning|error}}:'
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_90 %s -- | FileCheck %s --check-prefix=SM90 --implicit-check-not='{{note|warning|error}}:'
// One run for several targets: each note names the targets it holds on, with
// each one's shared memory.
// RUN: %warplint --checks='-*,arch-ignored-config' --arch=sm_50,sm_61,sm_80 %s -- | FileCheck %s --check-prefix=MERGED --implicit-check-not='{{note|warning|error}}:'
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: %warplint --cuda-path=%t.empty --checks='-*,arch-ignored-config' --arch=sm_52 %s -- 2>/dev/null | FileCheck %s --check-prefix=SM52 --implicit-check-not='{{note|warning|error}}:'
//
// Host calls that configure what the target does not have: an L1/shared
// preference where shared memory is dedicated (Maxwell, Pascal), 8-byte
// banks (gone since Maxwell), a carveout where there is none. Notes: the
// calls do nothing there, and fail nothing.
#include <cuda_runtime.h>

__global__ void k(float *a) { a[threadIdx.x] = 0; }

void configure() {
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  // SM52: :[[@LINE-1]]:3: note: 'cudaDeviceSetCacheConfig' asks for cudaFuncCachePreferShared, which has no effect on sm_52: shared memory there is dedicated, 96 KB per SM whatever the preference, and L1 is merged with the texture cache (Maxwell Tuning Guide 1.4.3.1: 'the preference will be ignored'); the call matters only on sm_70 and later [arch-ignored-config]
  // SM61: :[[@LINE-2]]:3: note: 'cudaDeviceSetCacheConfig' asks for cudaFuncCachePreferShared, which has no effect on sm_61: shared memory there is dedicated, 96 KB per SM
  // MERGED: :[[@LINE-3]]:3: note: 'cudaDeviceSetCacheConfig' asks for cudaFuncCachePreferShared, which has no effect on sm_50 and sm_61: shared memory there is dedicated, 64 and 96 KB per SM whatever the preference
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
  // SM52: :[[@LINE-1]]:3: note: 'cudaFuncSetCacheConfig' asks for cudaFuncCachePreferL1, which has no effect on sm_52: shared memory there is dedicated, 96 KB per SM
  // SM61: :[[@LINE-2]]:3: note: 'cudaFuncSetCacheConfig' asks for cudaFuncCachePreferL1, which has no effect on sm_61
  // MERGED: :[[@LINE-3]]:3: note: 'cudaFuncSetCacheConfig' asks for cudaFuncCachePreferL1, which has no effect on sm_50 and sm_61
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
  // SM52: :[[@LINE-1]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_52: the banks there are always 4 bytes wide (Maxwell Tuning Guide 1.4.3.2: Kepler's optional 8-byte banking mode is gone, 'banks are always four bytes wide'); the call can go [arch-ignored-config]
  // SM61: :[[@LINE-2]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_61
  // SM75: :[[@LINE-3]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_75
  // SM80: :[[@LINE-4]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_80: the banks there are always 4 bytes wide
  // SM90: :[[@LINE-5]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_90
  // MERGED: :[[@LINE-6]]:3: note: 'cudaDeviceSetSharedMemConfig' asks for 8-byte shared-memory banks, which has no effect on sm_50, sm_61 and sm_80: the banks there are always 4 bytes wide
  cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
  // SM52: :[[@LINE-1]]:3: note: 'cudaFuncSetAttribute' sets the preferred shared-memory carveout, which has no effect on sm_52: there is no carveout to choose, shared memory is a fixed 96 KB per SM, apart from L1 (Volta Tuning Guide 1.4.3.2: the carveout comes with the unified L1/shared data cache); the call matters only on sm_70 and later [arch-ignored-config]
  // SM61: :[[@LINE-2]]:3: note: 'cudaFuncSetAttribute' sets the preferred shared-memory carveout, which has no effect on sm_61: there is no carveout to choose, shared memory is a fixed 96 KB per SM
  // MERGED: :[[@LINE-3]]:3: note: 'cudaFuncSetAttribute' sets the preferred shared-memory carveout, which has no effect on sm_50 and sm_61: there is no carveout to choose, shared memory is a fixed 64 and 96 KB per SM
}

// Negatives: no preference, the 4-byte banks every target has, other
// attributes, settings known only at run time, and a user's own function.
cudaError_t cudaDeviceSetCacheConfig(int preference, bool verbose);
void fine(cudaFuncCache fromUser) {
  cudaDeviceSetCacheConfig(cudaFuncCachePreferNone);
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferNone);
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte);
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  cudaDeviceSetCacheConfig(fromUser);
  cudaDeviceSetCacheConfig(1, true);
}

int main() {
  configure();
  fine(cudaFuncCachePreferEqual);
  k<<<1, 32>>>(nullptr);
  return 0;
}
