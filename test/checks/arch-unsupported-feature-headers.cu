// The features the toolkit's headers bring: cooperative_groups' clusters,
// libcu++'s TMA wrappers, nv/target's guards, half and bfloat16 intrinsics.
// REQUIRES: cuda-toolkit
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_52 %s -- | FileCheck %s --check-prefix=SM52 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_75 %s -- | FileCheck %s --check-prefix=SM75 --implicit-check-not='{{warning|error}}:'
// RUN: not %warplint --checks='-*,arch-unsupported-feature' --arch=sm_80 %s -- | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{warning|error}}:'
// sm_90 has them all, and the cluster API parses there (no clang-diagnostic-error).
// RUN: %warplint --checks='-*,arch-unsupported-feature' --arch=sm_90 %s -- 2>&1 | FileCheck %s --check-prefix=SM90 --allow-empty --implicit-check-not='{{warning|error}}:'
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <nv/target>
namespace cg = cooperative_groups;

__global__ void clustered(float *a) {
  cg::cluster_group cluster = cg::this_cluster();
  // SM80: :[[@LINE-1]]:31: error: 'cooperative_groups::this_cluster' uses thread block clusters (sm_90 or later); building it for sm_80 fails (CUDA C++ Programming Guide, 'Thread Block Clusters'): guard it with '#if __CUDA_ARCH__ >= 900' [arch-unsupported-feature]
  // SM75: :[[@LINE-2]]:31: error: 'cooperative_groups::this_cluster' uses thread block clusters (sm_90 or later); building it for sm_75 fails
  // SM52: :[[@LINE-3]]:31: error: 'cooperative_groups::this_cluster' uses thread block clusters (sm_90 or later); building it for sm_52 fails
  cluster.sync();
  a[cluster.block_rank()] = *cluster.map_shared_rank(a, 0);
}

__global__ void tma(float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t mbar;
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s, g, 256, &mbar);
  // SM80: :[[@LINE-1]]:3: error: 'cuda::ptx::cp_async_bulk' uses the Tensor Memory Accelerator (sm_90 or later); building it for sm_80 fails (CUDA C++ Programming Guide, 'Asynchronous Data Copies using the Tensor Memory Accelerator (TMA)'): guard it with '#if __CUDA_ARCH__ >= 900', or copy with cuda::memcpy_async [arch-unsupported-feature]
  // SM75: :[[@LINE-2]]:3: error: 'cuda::ptx::cp_async_bulk' uses the Tensor Memory Accelerator
  // SM52: :[[@LINE-3]]:3: error: 'cuda::ptx::cp_async_bulk' uses the Tensor Memory Accelerator
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s, g, 256, &mbar);));
}

// nv/target's guards drop the code for targets without the feature, as #if
// does.
__global__ void nv_guarded(unsigned *u) {
  NV_IF_TARGET(NV_PROVIDES_SM_70, (__nanosleep(100);));
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_80,
                    (u[0] = __reduce_add_sync(0xffffffffu, u[1]);),
                    (u[0] = u[1];));
}

__global__ void halves(__half *h, __half2 *h2) {
  h[0] = __hfma(h[0], h[1], h[2]);
  // SM52: :[[@LINE-1]]:10: error: '__hfma' uses half-precision arithmetic (sm_53 or later); building it for sm_52 fails (CUDA C++ Programming Guide, 'Arithmetic Instructions'; CUDA Math API, 'Half Precision Intrinsics'): guard it with '#if __CUDA_ARCH__ >= 530', or compute in float [arch-unsupported-feature]
  h2[0] = __hfma2(h2[0], h2[1], h2[2]);
  // SM52: :[[@LINE-1]]:11: error: '__hfma2' uses half-precision arithmetic (sm_53 or later); building it for sm_52 fails
  h[1] = hsin(h[0]);
  // SM52: :[[@LINE-1]]:10: error: 'hsin' uses half-precision arithmetic (sm_53 or later); building it for sm_52 fails
  // Emulated in FP32 by the toolkit below sm_53: it builds.
  h[2] = h[0] * h[1] + h[2];
  h[3] = __hadd(h[0], h[1]);
}

__global__ void bfloats(__nv_bfloat16 *b, __nv_bfloat162 *b2) {
  b[0] = __hfma(b[0], b[1], b[2]);
  // SM75: :[[@LINE-1]]:10: error: '__hfma' uses bfloat16 arithmetic (sm_80 or later); building it for sm_75 fails (PTX ISA, 'Half Precision Floating-Point Instructions'; CUDA Math API, 'Bfloat16 Precision Intrinsics'): guard it with '#if __CUDA_ARCH__ >= 800', or compute in float [arch-unsupported-feature]
  // SM52: :[[@LINE-2]]:10: error: '__hfma' uses bfloat16 arithmetic (sm_80 or later); building it for sm_52 fails
  b2[0] = __hfma2(b2[0], b2[1], b2[2]);
  // SM75: :[[@LINE-1]]:11: error: '__hfma2' uses bfloat16 arithmetic (sm_80 or later); building it for sm_75 fails
  // SM52: :[[@LINE-2]]:11: error: '__hfma2' uses bfloat16 arithmetic (sm_80 or later); building it for sm_52 fails
  // Emulated in FP32 by the toolkit below sm_80: it builds.
  b[1] = b[0] * b[1] + b[2];
#if __CUDA_ARCH__ >= 800
  b[2] = __hfma_relu(b[0], b[1], b[2]);
#endif
}
// SM90-NOT: {{error|warning}}
