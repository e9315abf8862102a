// warplint's minimal CUDA declarations: used in place of the toolkit's
// headers when no CUDA toolkit is installed, so that kernels still parse and
// can be linted. It declares the language (qualifiers, built-in variables,
// vector types), the device intrinsics from clang's own CUDA headers and the
// common runtime API. It is not a toolkit: code needing more (cub, thrust,
// cuBLAS) needs the real one.
#pragma once
#ifndef WARPLINT_CUDA_FALLBACK_H
#define WARPLINT_CUDA_FALLBACK_H

#define WARPLINT_CUDA_FALLBACK 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif

#include <__clang_cuda_math_forward_declares.h>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __restrict__ __restrict
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))

// Vector types (CUDA's vector_types.h).
#define WARPLINT_VEC2(T, N, A)                                                 \
  struct __align__(A) N##2 { T x, y; };
#define WARPLINT_VEC3(T, N)                                                    \
  struct N##3 { T x, y, z; };
#define WARPLINT_VEC4(T, N, A)                                                 \
  struct __align__(A) N##4 { T x, y, z, w; };
WARPLINT_VEC2(float, float, 8) WARPLINT_VEC3(float, float) WARPLINT_VEC4(float, float, 16)
WARPLINT_VEC2(double, double, 16) WARPLINT_VEC3(double, double) WARPLINT_VEC4(double, double, 16)
WARPLINT_VEC2(int, int, 8) WARPLINT_VEC3(int, int) WARPLINT_VEC4(int, int, 16)
WARPLINT_VEC2(unsigned int, uint, 8) WARPLINT_VEC3(unsigned int, uint) WARPLINT_VEC4(unsigned int, uint, 16)
WARPLINT_VEC2(short, short, 4) WARPLINT_VEC4(short, short, 8)
WARPLINT_VEC2(unsigned short, ushort, 4) WARPLINT_VEC4(unsigned short, ushort, 8)
WARPLINT_VEC2(signed char, char, 2) WARPLINT_VEC4(signed char, char, 4)
WARPLINT_VEC2(unsigned char, uchar, 2) WARPLINT_VEC4(unsigned char, uchar, 4)
WARPLINT_VEC2(long long, longlong, 16) WARPLINT_VEC2(unsigned long long, ulonglong, 16)
WARPLINT_VEC4(long long, longlong, 16) WARPLINT_VEC4(unsigned long long, ulonglong, 16)
#undef WARPLINT_VEC2
#undef WARPLINT_VEC3
#undef WARPLINT_VEC4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int x = 1, unsigned int y = 1,
                                     unsigned int z = 1)
      : x(x), y(y), z(z) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

__host__ __device__ inline float2 make_float2(float x, float y) { return {x, y}; }
__host__ __device__ inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
__host__ __device__ inline int2 make_int2(int x, int y) { return {x, y}; }
__host__ __device__ inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
__host__ __device__ inline uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }

#include <__clang_cuda_builtin_vars.h>
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

// Device intrinsics: clang's own implementations (shuffles, votes,
// __syncthreads*, __syncwarp, math wrappers over libdevice).
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#include <__clang_cuda_cmath.h>
// What clang's sm_90 intrinsics build on (CUDA's sm_20_intrinsics.h).
__device__ unsigned int __isShared(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
#include <__clang_cuda_intrinsics.h>

__device__ void __syncthreads();
__device__ void __threadfence();
__device__ void __threadfence_block();
// The toolkit declares these only for targets that have them; warplint defines
// __warplint_lacks_<feature> from the rule tables for those that do not.
#ifndef __warplint_lacks_nanosleep
__device__ void __nanosleep(unsigned int ns);
#endif
#ifndef __warplint_lacks_warp_match_functions
template <class T> __device__ unsigned int __match_any_sync(unsigned int mask, T value);
template <class T>
__device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
#endif

// Atomics (CUDA's sm_20/sm_60 atomic functions), declared only.
#define WARPLINT_ATOMIC(NAME, T) __device__ T NAME(T *address, T val);
#define WARPLINT_ATOMIC_INTS(NAME)                                             \
  WARPLINT_ATOMIC(NAME, int) WARPLINT_ATOMIC(NAME, unsigned int)               \
  WARPLINT_ATOMIC(NAME, unsigned long long int)
WARPLINT_ATOMIC_INTS(atomicAdd) WARPLINT_ATOMIC(atomicAdd, float)
WARPLINT_ATOMIC(atomicAdd, double)
WARPLINT_ATOMIC_INTS(atomicAdd_block) WARPLINT_ATOMIC(atomicAdd_block, float)
WARPLINT_ATOMIC(atomicAdd_block, double)
WARPLINT_ATOMIC_INTS(atomicAdd_system) WARPLINT_ATOMIC(atomicAdd_system, float)
WARPLINT_ATOMIC(atomicAdd_system, double)
WARPLINT_ATOMIC(atomicSub, int) WARPLINT_ATOMIC(atomicSub, unsigned int)
WARPLINT_ATOMIC_INTS(atomicExch) WARPLINT_ATOMIC(atomicExch, float)
WARPLINT_ATOMIC_INTS(atomicMin) WARPLINT_ATOMIC_INTS(atomicMax)
WARPLINT_ATOMIC_INTS(atomicAnd) WARPLINT_ATOMIC_INTS(atomicOr)
WARPLINT_ATOMIC_INTS(atomicXor)
WARPLINT_ATOMIC(atomicInc, unsigned int) WARPLINT_ATOMIC(atomicDec, unsigned int)
#undef WARPLINT_ATOMIC_INTS
#undef WARPLINT_ATOMIC
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int val);
__device__ unsigned long long int atomicCAS(unsigned long long int *address,
                                            unsigned long long int compare,
                                            unsigned long long int val);

// The runtime API most programs use.
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1,
                 cudaErrorMemoryAllocation = 2 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                      cudaMemcpyDefault = 4 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
                         cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
                     cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0,
                           cudaSharedMemBankSizeFourByte = 1,
                           cudaSharedMemBankSizeEightByte = 2 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

extern "C" {
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = 1);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                       enum cudaSharedMemConfig config);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem = 0,
                             cudaStream_t stream = 0);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                        dim3 blockDim, void **args,
                                        size_t sharedMem = 0,
                                        cudaStream_t stream = 0);
typedef struct cudaLaunchAttribute_st cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                const void *func, void **args);
// The kernel-launch hooks clang's <<<...>>> lowers to (old and new API).
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem = 0, void *stream = 0);
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                              cudaStream_t stream = 0);
}
template <class T>
cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)devPtr, size);
}
template <class T>
cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T>
cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr,
                                 int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class T>
cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                          sharedMem, stream);
}
template <class T>
cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem = 0,
                                        cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                     args, sharedMem, stream);
}
template <typename... ExpTypes, typename... ActTypes>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                               void (*kernel)(ExpTypes...),
                               ActTypes &&...args) {
  return cudaSuccess;
}

#endif
