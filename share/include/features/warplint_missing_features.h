// Declarations of the device functions a target lacks, so that a call to one
// is reported by arch-unsupported-feature instead of failing the parse.
//
// CUDA's headers leave such functions out for targets without the feature
// (crt/sm_70_rt.h declares __nanosleep only for __CUDA_ARCH__ >= 700, ...), so
// without this header a call is "use of undeclared identifier" and no check
// runs on the file. warplint includes it in every device parse, after the
// CUDA headers, and defines __warplint_lacks_<feature> for each Feature field
// of the rule table (arch-data, lib/Arch/ArchFields.def) that the target
// lacks: what is declared, and when, comes from the tables, not from
// __CUDA_ARCH__. Each declaration carries its feature's name in
// annotate("warplint-requires:<feature>"). Names the toolkit overloads are
// templates, so that a non-template the toolkit does declare still wins
// overload resolution. Nothing here is ever defined: this is a parse for
// analysis, not a build.
#pragma once
#pragma clang system_header

#define __WARPLINT_REQUIRES(FEATURE)                                           \
  __attribute__((annotate("warplint-requires:" #FEATURE)))

// cooperative_groups offers cluster_group (sm_90 and later) only to compilers
// it knows to provide the cluster intrinsics; clang does, in
// __clang_cuda_intrinsics.h.
#ifndef _CG_CLUSTER_INTRINSICS_AVAILABLE
#define _CG_CLUSTER_INTRINSICS_AVAILABLE 1
#endif

#ifdef __warplint_lacks_nanosleep
__attribute__((device)) void __nanosleep(unsigned int __ns)
    __WARPLINT_REQUIRES(nanosleep);
#endif

#ifdef __warplint_lacks_warp_reduce_functions
#define __WARPLINT_REDUCE(NAME)                                                \
  template <class __T>                                                         \
  __attribute__((device)) __T NAME(unsigned int __mask, __T __value)           \
      __WARPLINT_REQUIRES(warp_reduce_functions);
__WARPLINT_REDUCE(__reduce_add_sync)
__WARPLINT_REDUCE(__reduce_min_sync)
__WARPLINT_REDUCE(__reduce_max_sync)
__WARPLINT_REDUCE(__reduce_and_sync)
__WARPLINT_REDUCE(__reduce_or_sync)
__WARPLINT_REDUCE(__reduce_xor_sync)
#undef __WARPLINT_REDUCE
#endif

#ifdef __warplint_lacks_warp_match_functions
template <class __T>
__attribute__((device)) unsigned int __match_any_sync(unsigned int __mask,
                                                      __T __value)
    __WARPLINT_REQUIRES(warp_match_functions);
template <class __T>
__attribute__((device)) unsigned int
__match_all_sync(unsigned int __mask, __T __value, int *__pred)
    __WARPLINT_REQUIRES(warp_match_functions);
#endif

#ifdef __warplint_lacks_thread_block_clusters
// The kernel attribute: clang rejects cluster_dims below sm_90 itself.
#undef __cluster_dims__
#define __cluster_dims__(...) __WARPLINT_REQUIRES(thread_block_clusters)
#define __WARPLINT_CLUSTER __attribute__((device)) __WARPLINT_REQUIRES(thread_block_clusters)
__WARPLINT_CLUSTER unsigned __clusterDimIsSpecified();
__WARPLINT_CLUSTER dim3 __clusterDim();
__WARPLINT_CLUSTER dim3 __clusterRelativeBlockIdx();
__WARPLINT_CLUSTER dim3 __clusterGridDimInClusters();
__WARPLINT_CLUSTER dim3 __clusterIdx();
__WARPLINT_CLUSTER unsigned __clusterRelativeBlockRank();
__WARPLINT_CLUSTER unsigned __clusterSizeInBlocks();
__WARPLINT_CLUSTER void __cluster_barrier_arrive();
__WARPLINT_CLUSTER void __cluster_barrier_arrive_relaxed();
__WARPLINT_CLUSTER void __cluster_barrier_wait();
__WARPLINT_CLUSTER void __threadfence_cluster();
__WARPLINT_CLUSTER unsigned __isClusterShared(const void *__ptr);
__WARPLINT_CLUSTER void *__cluster_map_shared_rank(const void *__ptr,
                                                   unsigned __rank);
__WARPLINT_CLUSTER unsigned __cluster_query_shared_rank(const void *__ptr);
// cooperative_groups' cluster_group: this_cluster() is the only way to get
// one, so it alone carries the feature.
namespace cooperative_groups {
class cluster_group {
public:
  struct arrival_token {};
  __attribute__((device)) static void sync();
  __attribute__((device)) static arrival_token barrier_arrive();
  __attribute__((device)) static void barrier_wait();
  __attribute__((device)) static void barrier_wait(arrival_token &&);
  __attribute__((device)) static unsigned int query_shared_rank(const void *);
  template <class __T>
  __attribute__((device)) static __T *map_shared_rank(__T *, int);
  __attribute__((device)) static dim3 block_index();
  __attribute__((device)) static unsigned int block_rank();
  __attribute__((device)) static dim3 thread_index();
  __attribute__((device)) static unsigned int thread_rank();
  __attribute__((device)) static dim3 dim_blocks();
  __attribute__((device)) static unsigned int num_blocks();
  __attribute__((device)) static dim3 dim_threads();
  __attribute__((device)) static unsigned int num_threads();
  __attribute__((device)) static unsigned int size();
};
__WARPLINT_CLUSTER cluster_group this_cluster();
} // namespace cooperative_groups
#undef __WARPLINT_CLUSTER
#endif

// Half and bfloat16 arithmetic: cuda_fp16.h and cuda_bf16.h emulate most of
// it in FP32 on targets without it (that builds, and is not reported), but
// leave out the fused multiply-adds and, for half, the math functions.
#if defined(__warplint_lacks_fp16_arithmetic) ||                              \
    defined(__warplint_lacks_bf16_arithmetic)
template <class __T, class __Of> struct __warplint_only {};
#define __WARPLINT_ONLY(TYPE, FEATURE, NAME, ...)                              \
  template <class __T>                                                         \
  __attribute__((device)) typename __warplint_only<__T, TYPE>::type NAME(      \
      __VA_ARGS__) __WARPLINT_REQUIRES(FEATURE);
#endif

#ifdef __warplint_lacks_fp16_arithmetic
struct __half;
struct __half2;
template <> struct __warplint_only<__half, __half> { typedef __half type; };
template <> struct __warplint_only<__half2, __half> { typedef __half2 type; };
#define __WARPLINT_HALF1(NAME) __WARPLINT_ONLY(__half, fp16_arithmetic, NAME, __T)
#define __WARPLINT_HALF3(NAME)                                                 \
  __WARPLINT_ONLY(__half, fp16_arithmetic, NAME, __T, __T, __T)
__WARPLINT_HALF3(__hfma)
__WARPLINT_HALF3(__hfma_sat)
__WARPLINT_HALF3(__hfma2)
__WARPLINT_HALF3(__hfma2_sat)
__WARPLINT_HALF3(__hcmadd)
__WARPLINT_HALF1(hsin)
__WARPLINT_HALF1(hcos)
__WARPLINT_HALF1(hexp)
__WARPLINT_HALF1(hexp10)
__WARPLINT_HALF1(hlog)
__WARPLINT_HALF1(hlog2)
__WARPLINT_HALF1(hlog10)
__WARPLINT_HALF1(h2sin)
__WARPLINT_HALF1(h2cos)
__WARPLINT_HALF1(h2exp)
__WARPLINT_HALF1(h2exp10)
__WARPLINT_HALF1(h2log)
__WARPLINT_HALF1(h2log2)
__WARPLINT_HALF1(h2log10)
#undef __WARPLINT_HALF1
#undef __WARPLINT_HALF3
#endif

#ifdef __warplint_lacks_bf16_arithmetic
struct __nv_bfloat16;
struct __nv_bfloat162;
template <> struct __warplint_only<__nv_bfloat16, __nv_bfloat16> {
  typedef __nv_bfloat16 type;
};
template <> struct __warplint_only<__nv_bfloat162, __nv_bfloat16> {
  typedef __nv_bfloat162 type;
};
#define __WARPLINT_BF16_3(NAME)                                                \
  __WARPLINT_ONLY(__nv_bfloat16, bf16_arithmetic, NAME, __T, __T, __T)
__WARPLINT_BF16_3(__hfma)
__WARPLINT_BF16_3(__hfma_sat)
__WARPLINT_BF16_3(__hfma_relu)
__WARPLINT_BF16_3(__hfma2)
__WARPLINT_BF16_3(__hfma2_sat)
__WARPLINT_BF16_3(__hfma2_relu)
__WARPLINT_BF16_3(__hcmadd)
#undef __WARPLINT_BF16_3
#endif

#ifdef __WARPLINT_ONLY
#undef __WARPLINT_ONLY
#endif
