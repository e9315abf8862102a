// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_52 %s -- | FileCheck %s --check-prefix=SM52 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_61 %s -- | FileCheck %s --check-prefix=SM61 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_75 %s -- | FileCheck %s --check-prefix=SM75 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_80 %s -- | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,arch-unsupported-feature' --arch=sm_90 %s -- 2>&1 | FileCheck %s --check-prefix=SM90 --allow-empty --implicit-check-not='{{warning|error}}:'
// One run for several targets: a finding names every target it holds on.
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_52,sm_75,sm_90 %s -- | FileCheck %s --check-prefix=MERGED --implicit-check-not='{{warning|error}}:'
// Without a toolkit, warplint's own declarations give the same verdicts.
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: not %warplint --cuda-path=%t.empty --checks='-*,arch-unsupported-feature' --arch=sm_52 %s -- 2>/dev/null | FileCheck %s --check-prefix=SM52 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --cuda-path=%t.empty --checks='-*,arch-unsupported-feature' --arch=sm_80 %s -- 2>/dev/null | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{warning|error}}:'
//
// A feature the target does not have fails the build for it. The CUDA
// headers do not even declare __nanosleep below sm_70 or __reduce_*_sync
// below sm_80; warplint declares them for such targets (from the rule
// tables) so that the call is this check's error, not a failed parse, and the
// other checks still run. atomicAdd on double (sm_60) and inline PTX
// cp.async.bulk (sm_90) parse everywhere and fail later, in codegen or ptxas.
#include <cuda_runtime.h>

__global__ void sleeps(unsigned *u) {
  __nanosleep(100);
  // SM52: :[[@LINE-1]]:3: error: '__nanosleep' uses the nanosleep instruction (sm_70 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Nanosleep Function'): guard it with '#if __CUDA_ARCH__ >= 700' [arch-unsupported-feature]
  // SM61: :[[@LINE-2]]:3: error: '__nanosleep' uses the nanosleep instruction (sm_70 or later); building it for sm_61 fails
  // MERGED: :[[@LINE-3]]:3: error: '__nanosleep' uses the nanosleep instruction (sm_70 or later); building it for sm_52 fails
  u[0] = 1;
}

__global__ void matches(unsigned *u, float *f) {
  u[0] = __match_any_sync(0xffffffffu, f[threadIdx.x]);
  // SM52: :[[@LINE-1]]:10: error: '__match_any_sync' uses the match.sync instruction (sm_70 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Warp Match Functions'): guard it with '#if __CUDA_ARCH__ >= 700' [arch-unsupported-feature]
  // SM61: :[[@LINE-2]]:10: error: '__match_any_sync' uses the match.sync instruction (sm_70 or later); building it for sm_61 fails
  // MERGED: :[[@LINE-3]]:10: error: '__match_any_sync' uses the match.sync instruction (sm_70 or later); building it for sm_52 fails
  int all;
  u[1] = __match_all_sync(0xffffffffu, u[threadIdx.x], &all);
  // SM52: :[[@LINE-1]]:10: error: '__match_all_sync' uses the match.sync instruction (sm_70 or later); building it for sm_52 fails
  // SM61: :[[@LINE-2]]:10: error: '__match_all_sync' uses the match.sync instruction
  // MERGED: :[[@LINE-3]]:10: error: '__match_all_sync' uses the match.sync instruction
}

__global__ void reduces(unsigned *u, int *s) {
  u[0] = __reduce_add_sync(0xffffffffu, u[threadIdx.x]);
  // SM52: :[[@LINE-1]]:10: error: '__reduce_add_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Warp Reduce Functions'): guard it with '#if __CUDA_ARCH__ >= 800', or reduce with __shfl_xor_sync [arch-unsupported-feature]
  // SM61: :[[@LINE-2]]:10: error: '__reduce_add_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_61 fails
  // SM75: :[[@LINE-3]]:10: error: '__reduce_add_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_75 fails (CUDA C++ Programming Guide, 'Warp Reduce Functions'): guard it with '#if __CUDA_ARCH__ >= 800', or reduce with __shfl_xor_sync [arch-unsupported-feature]
  // MERGED: :[[@LINE-4]]:10: error: '__reduce_add_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_52 and sm_75 fails (CUDA C++ Programming Guide, 'Warp Reduce Functions'): guard it with '#if __CUDA_ARCH__ >= 800', or reduce with __shfl_xor_sync [arch-unsupported-feature]
  s[0] = __reduce_max_sync(0xffffffffu, s[threadIdx.x]);
  // SM52: :[[@LINE-1]]:10: error: '__reduce_max_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_52 fails
  // SM61: :[[@LINE-2]]:10: error: '__reduce_max_sync' uses the redux.sync instruction
  // SM75: :[[@LINE-3]]:10: error: '__reduce_max_sync' uses the redux.sync instruction
  // MERGED: :[[@LINE-4]]:10: error: '__reduce_max_sync' uses the redux.sync instruction (sm_80 or later); building it for sm_52 and sm_75 fails
}

__global__ void atomics(double *d, float *f) {
  atomicAdd(d, 1.0);
  // SM52: :[[@LINE-1]]:3: error: 'atomicAdd' on double uses a 64-bit floating-point atomic add (sm_60 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Atomic Functions'): guard it with '#if __CUDA_ARCH__ >= 600', or loop on atomicCAS as the guide's atomicAdd for double does [arch-unsupported-feature]
  // MERGED: :[[@LINE-2]]:3: error: 'atomicAdd' on double uses a 64-bit floating-point atomic add (sm_60 or later); building it for sm_52 fails
  atomicAdd_block(d, 1.0);
  // SM52: :[[@LINE-1]]:3: error: 'atomicAdd_block' on double uses a 64-bit floating-point atomic add (sm_60 or later); building it for sm_52 fails
  // MERGED: :[[@LINE-2]]:3: error: 'atomicAdd_block' on double
  atomicAdd(f, 1.0f); // float: every target
}

// A template is judged per instantiation: only the one on double needs sm_60.
template <class T> __device__ void accumulate(T *p, T v) { atomicAdd(p, v); }
// SM52: :[[@LINE-1]]:60: error: 'atomicAdd' on double uses a 64-bit floating-point atomic add (sm_60 or later); building it for sm_52 fails
// MERGED: :[[@LINE-2]]:60: error: 'atomicAdd' on double
__global__ void sums(float *f, double *d) {
  accumulate(f, 1.0f);
  accumulate(d, 1.0);
}
__global__ void sums_float(float *f) { accumulate(f, 2.0f); }

__global__ void __cluster_dims__(2, 1, 1) clustered(float *a) {
  // SM52: :[[@LINE-1]]:17: error: '__cluster_dims__' uses thread block clusters (sm_90 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Thread Block Clusters'): guard it with '#if __CUDA_ARCH__ >= 900' [arch-unsupported-feature]
  // SM61: :[[@LINE-2]]:17: error: '__cluster_dims__' uses thread block clusters (sm_90 or later); building it for sm_61 fails
  // SM75: :[[@LINE-3]]:17: error: '__cluster_dims__' uses thread block clusters (sm_90 or later); building it for sm_75 fails
  // SM80: :[[@LINE-4]]:17: error: '__cluster_dims__' uses thread block clusters (sm_90 or later); building it for sm_80 fails (CUDA C++ Programming Guide, 'Thread Block Clusters'): guard it with '#if __CUDA_ARCH__ >= 900' [arch-unsupported-feature]
  // MERGED: :[[@LINE-5]]:17: error: '__cluster_dims__' uses thread block clusters (sm_90 or later); building it for sm_52 and sm_75 fails
  a[__clusterRelativeBlockRank()] = 1;
  // SM52: :[[@LINE-1]]:5: error: '__clusterRelativeBlockRank' uses thread block clusters (sm_90 or later); building it for sm_52 fails
  // SM61: :[[@LINE-2]]:5: error: '__clusterRelativeBlockRank' uses thread block clusters
  // SM75: :[[@LINE-3]]:5: error: '__clusterRelativeBlockRank' uses thread block clusters
  // SM80: :[[@LINE-4]]:5: error: '__clusterRelativeBlockRank' uses thread block clusters (sm_90 or later); building it for sm_80 fails
  // MERGED: :[[@LINE-5]]:5: error: '__clusterRelativeBlockRank' uses thread block clusters (sm_90 or later); building it for sm_52 and sm_75 fails
}

__global__ void bulk_copy(const float *g, unsigned dst, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
               :: "r"(dst), "l"(g), "r"(bar) : "memory");
  // SM52: :[[@LINE-2]]:16: error: inline PTX 'cp.async.bulk' uses the Tensor Memory Accelerator (sm_90 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Asynchronous Data Copies using the Tensor Memory Accelerator (TMA)'): guard it with '#if __CUDA_ARCH__ >= 900', or copy with cuda::memcpy_async [arch-unsupported-feature]
  // SM61: :[[@LINE-3]]:16: error: inline PTX 'cp.async.bulk' uses the Tensor Memory Accelerator
  // SM75: :[[@LINE-4]]:16: error: inline PTX 'cp.async.bulk' uses the Tensor Memory Accelerator
  // SM80: :[[@LINE-5]]:16: error: inline PTX 'cp.async.bulk' uses the Tensor Memory Accelerator (sm_90 or later); building it for sm_80 fails
  // MERGED: :[[@LINE-6]]:16: error: inline PTX 'cp.async.bulk' uses the Tensor Memory Accelerator (sm_90 or later); building it for sm_52 and sm_75 fails
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;"
               :: "l"(g), "r"(dst) : "memory");
  // SM80: :[[@LINE-2]]:16: error: inline PTX 'cp.reduce.async.bulk' uses the Tensor Memory Accelerator (sm_90 or later); building it for sm_80 fails
  // SM52: :[[@LINE-3]]:16: error: inline PTX 'cp.reduce.async.bulk'
  // SM61: :[[@LINE-4]]:16: error: inline PTX 'cp.reduce.async.bulk'
  // SM75: :[[@LINE-5]]:16: error: inline PTX 'cp.reduce.async.bulk'
  // MERGED: :[[@LINE-6]]:16: error: inline PTX 'cp.reduce.async.bulk'
}

// Negatives: each use guarded the way the guides show, or a look-alike.
__global__ void guarded(unsigned *u, double *d, const float *g, unsigned dst) {
#if __CUDA_ARCH__ >= 700
  __nanosleep(100);
#endif
#if __CUDA_ARCH__ >= 800
  u[0] = __reduce_add_sync(0xffffffffu, u[1]);
#else
  u[0] = u[1];
#endif
#if __CUDA_ARCH__ >= 600
  atomicAdd(d, 1.0);
#endif
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
               :: "r"(dst), "l"(g), "r"(dst) : "memory");
#endif
  // Ampere's cp.async is not the bulk copy.
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(dst), "l"(g));
#endif
  // The branch if constexpr discards is not built.
  if constexpr (__CUDA_ARCH__ >= 700)
    __nanosleep(10);
  else
    u[2] = 0;
}

namespace mine {
__device__ void __nanosleep(unsigned ns) {}
} // namespace mine
__device__ double my_atomic_add(double *p, double v) { return *p += v; }
__global__ void lookalikes(double *d) {
  mine::__nanosleep(5);
  my_atomic_add(d, 1.0);
  asm volatile("// cp.async.bulk is named in a comment, not issued" ::);
}

// Host code calls no device feature.
int main() {
  double *d;
  cudaMalloc(&d, sizeof(double));
  atomics<<<1, 32>>>(d, nullptr);
  return 0;
}
// SM90-NOT: arch-unsupported-feature
