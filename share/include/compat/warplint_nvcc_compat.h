// Declarations that nvcc's headers give host code and clang's CUDA wrapper
// headers do not, so that a file nvcc compiles also parses for analysis.
//
// warplint includes this header in every device parse, after the CUDA
// headers. Nothing here changes the meaning of code that clang already
// accepts: the host overloads are __host__ only, so device code resolves its
// calls exactly as before, and a host call that already had a viable
// candidate keeps it when that one is better; the device functions are the
// ones clang's headers leave out, defined as nvcc's headers define them.
#pragma once
#pragma clang system_header

// nvcc's own version: nvcc defines __CUDACC_VER_MAJOR__/_MINOR__/_BUILD__,
// clang does not, and `#if __CUDACC_VER_MAJOR__ < 12` then reads 0 < 12
// (llm.c's common.h defines its own __ldcs "for older nvcc" and collides with
// the toolkit's on every target below sm_80). The toolkit parsed is the nvcc
// the file is built with.
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDA_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// min() and max(): nvcc's crt/math_functions.h declares int min(int, int)
// __host__ __device__, and crt/math_functions.hpp defines the mixed
// signed/unsigned, long, long long, float and double overloads
// __host__ __device__ too. clang's __clang_cuda_runtime_wrapper.h includes
// math_functions.hpp with __host__ poisoned, so there they are __device__
// only, and a host function calling min(a, b) fails the whole parse with
// "no matching function for call to 'min'".
#define __WARPLINT_MINMAX(RET, A, B)                                           \
  extern __attribute__((host)) RET min(A, B);                                  \
  extern __attribute__((host)) RET max(A, B);
__WARPLINT_MINMAX(int, int, int)
__WARPLINT_MINMAX(unsigned int, unsigned int, unsigned int)
__WARPLINT_MINMAX(unsigned int, int, unsigned int)
__WARPLINT_MINMAX(unsigned int, unsigned int, int)
__WARPLINT_MINMAX(long int, long int, long int)
__WARPLINT_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__WARPLINT_MINMAX(unsigned long int, long int, unsigned long int)
__WARPLINT_MINMAX(unsigned long int, unsigned long int, long int)
__WARPLINT_MINMAX(long long int, long long int, long long int)
__WARPLINT_MINMAX(unsigned long long int, unsigned long long int,
                  unsigned long long int)
__WARPLINT_MINMAX(unsigned long long int, long long int,
                  unsigned long long int)
__WARPLINT_MINMAX(unsigned long long int, unsigned long long int,
                  long long int)
__WARPLINT_MINMAX(float, float, float)
__WARPLINT_MINMAX(double, double, double)
__WARPLINT_MINMAX(double, float, double)
__WARPLINT_MINMAX(double, double, float)
#undef __WARPLINT_MINMAX

// isfinite(), isnan(), isinf() and signbit() called unqualified in host
// code: nvcc's crt/math_functions.h includes <math.h>, whose libstdc++
// wrapper brings std::isfinite and the other classification functions into
// the global namespace. clang's CUDA wrapper headers include <cmath> only,
// so there the global names are clang's __device__ overloads alone and a
// host call finds no candidate. Including <math.h> gives the parse what
// nvcc's gives every CUDA file; device calls still prefer the __device__
// overloads.
#include <math.h>

// Host clock(), memcpy(), strlen() without their headers: nvcc's
// crt/common_functions.h includes <string.h> and <time.h> for every CUDA
// file (llm.c's permute.cu times its CPU reference with clock()).
#include <string.h>
#include <time.h>

// The cache-hinted loads and stores of sm_32_intrinsics.h that clang's
// __clang_cuda_intrinsics.h does not define (it has __ldg, __ldcg, __ldcs,
// __ldcv and __stwt): __ldca, __ldlu, __stwb, __stcg and __stcs, for every
// type nvcc's header gives them. They are defined, as nvcc's
// sm_32_intrinsics.hpp defines them and as clang defines __stwt: one PTX
// load or store with the cache operator. A declaration alone would leave an
// external call in the device code, and the register compile of a kernel
// that streams its results out with __stcs (llm.c) would count a call's
// registers where nvcc's code has one st.global.cs.
#define __WARPLINT_LD(NAME, OP, T, TMP, C)                                     \
  static __attribute__((device)) __inline__ T NAME(const T *__ptr) {         \
    TMP __ret;                                                                 \
    asm(OP " %0, [%1];" : C(__ret) : "l"(__ptr));                              \
    return (T)__ret;                                                           \
  }
#define __WARPLINT_LD2(NAME, OP, T, TMP, C)                                    \
  static __attribute__((device)) __inline__ T NAME(const T *__ptr) {         \
    T __ret;                                                                   \
    TMP __tmp;                                                                 \
    asm(OP " {%0,%1}, [%2];" : C(__tmp.x), C(__tmp.y) : "l"(__ptr));           \
    __ret.x = (decltype(__ret.x))__tmp.x;                                      \
    __ret.y = (decltype(__ret.y))__tmp.y;                                      \
    return __ret;                                                              \
  }
#define __WARPLINT_LD4(NAME, OP, T, TMP, C)                                    \
  static __attribute__((device)) __inline__ T NAME(const T *__ptr) {         \
    T __ret;                                                                   \
    TMP __tmp;                                                                 \
    asm(OP " {%0,%1,%2,%3}, [%4];"                                             \
        : C(__tmp.x), C(__tmp.y), C(__tmp.z), C(__tmp.w)                       \
        : "l"(__ptr));                                                         \
    __ret.x = (decltype(__ret.x))__tmp.x;                                      \
    __ret.y = (decltype(__ret.y))__tmp.y;                                      \
    __ret.z = (decltype(__ret.z))__tmp.z;                                      \
    __ret.w = (decltype(__ret.w))__tmp.w;                                      \
    return __ret;                                                              \
  }
#define __WARPLINT_ST(NAME, OP, T, TMP, C)                                     \
  static __attribute__((device)) __inline__ void NAME(T *__ptr, T __value) { \
    TMP __tmp = (TMP)__value;                                                  \
    asm(OP " [%0], %1;" ::"l"(__ptr), C(__tmp) : "memory");                    \
  }
#define __WARPLINT_ST2(NAME, OP, T, TMP, C)                                    \
  static __attribute__((device)) __inline__ void NAME(T *__ptr, T __value) { \
    TMP __tmp;                                                                 \
    __tmp.x = (decltype(__tmp.x))__value.x;                                    \
    __tmp.y = (decltype(__tmp.y))__value.y;                                    \
    asm(OP " [%0], {%1,%2};" ::"l"(__ptr), C(__tmp.x), C(__tmp.y) : "memory"); \
  }
#define __WARPLINT_ST4(NAME, OP, T, TMP, C)                                    \
  static __attribute__((device)) __inline__ void NAME(T *__ptr, T __value) { \
    TMP __tmp;                                                                 \
    __tmp.x = (decltype(__tmp.x))__value.x;                                    \
    __tmp.y = (decltype(__tmp.y))__value.y;                                    \
    __tmp.z = (decltype(__tmp.z))__value.z;                                    \
    __tmp.w = (decltype(__tmp.w))__value.w;                                    \
    asm(OP " [%0], {%1,%2,%3,%4};" ::"l"(__ptr), C(__tmp.x), C(__tmp.y),       \
        C(__tmp.z), C(__tmp.w)                                                 \
        : "memory");                                                           \
  }
// One function for every type, with its cache operator: F is the load or
// the store macro, K the constraint's prefix ("=" for a load's output).
#define __WARPLINT_ALL(F, NAME, CO, K)                                    \
  F(NAME, CO ".s8", char, unsigned int, K "r")                                \
  F(NAME, CO ".s8", signed char, unsigned int, K "r")                         \
  F(NAME, CO ".s16", short, unsigned short, K "h")                            \
  F(NAME, CO ".s32", int, unsigned int, K "r")                                \
  F(NAME, CO ".s64", long long, unsigned long long, K "l")                    \
  F(NAME, CO ".u8", unsigned char, unsigned int, K "r")                       \
  F(NAME, CO ".u16", unsigned short, unsigned short, K "h")                   \
  F(NAME, CO ".u32", unsigned int, unsigned int, K "r")                       \
  F(NAME, CO ".u64", unsigned long long, unsigned long long, K "l")           \
  F(NAME, CO ".f32", float, float, K "f")                                     \
  F(NAME, CO ".f64", double, double, K "d")                                   \
  F##2(NAME, CO ".v2.s8", char2, int2, K "r")                                 \
  F##4(NAME, CO ".v4.s8", char4, int4, K "r")                                 \
  F##2(NAME, CO ".v2.s16", short2, short2, K "h")                             \
  F##4(NAME, CO ".v4.s16", short4, short4, K "h")                             \
  F##2(NAME, CO ".v2.s32", int2, int2, K "r")                                 \
  F##4(NAME, CO ".v4.s32", int4, int4, K "r")                                 \
  F##2(NAME, CO ".v2.s64", longlong2, longlong2, K "l")                       \
  F##2(NAME, CO ".v2.u8", uchar2, uint2, K "r")                               \
  F##4(NAME, CO ".v4.u8", uchar4, uint4, K "r")                               \
  F##2(NAME, CO ".v2.u16", ushort2, ushort2, K "h")                           \
  F##4(NAME, CO ".v4.u16", ushort4, ushort4, K "h")                           \
  F##2(NAME, CO ".v2.u32", uint2, uint2, K "r")                               \
  F##4(NAME, CO ".v4.u32", uint4, uint4, K "r")                               \
  F##2(NAME, CO ".v2.u64", ulonglong2, ulonglong2, K "l")                     \
  F##2(NAME, CO ".v2.f32", float2, float2, K "f")                             \
  F##4(NAME, CO ".v4.f32", float4, float4, K "f")                             \
  F##2(NAME, CO ".v2.f64", double2, double2, K "d")
__WARPLINT_ALL(__WARPLINT_LD, __ldca, "ld.global.ca", "=")
__WARPLINT_ALL(__WARPLINT_LD, __ldlu, "ld.global.lu", "=")
__WARPLINT_ALL(__WARPLINT_ST, __stwb, "st.global.wb", "")
__WARPLINT_ALL(__WARPLINT_ST, __stcg, "st.global.cg", "")
__WARPLINT_ALL(__WARPLINT_ST, __stcs, "st.global.cs", "")
// long is 64 bits on the 64-bit hosts CUDA supports but Windows, as clang's
// __ldcs(const long *) allows for.
#define __WARPLINT_LONG(NAME)                                              \
  static __attribute__((device)) __inline__ long NAME(const long *__ptr) {   \
    if (sizeof(long) == 8)                                                     \
      return (long)NAME((const long long *)__ptr);                             \
    return (long)NAME((const int *)__ptr);                                     \
  }                                                                            \
  static __attribute__((device))                                               \
  __inline__ unsigned long NAME(const unsigned long *__ptr) {                  \
    if (sizeof(long) == 8)                                                     \
      return (unsigned long)NAME((const unsigned long long *)__ptr);           \
    return (unsigned long)NAME((const unsigned int *)__ptr);                   \
  }
#define __WARPLINT_LONG_ST(NAME)                                              \
  static __attribute__((device)) __inline__ void NAME(long *__ptr,           \
                                                      long __value) {         \
    if (sizeof(long) == 8)                                                     \
      NAME((long long *)__ptr, (long long)__value);                            \
    else                                                                       \
      NAME((int *)__ptr, (int)__value);                                        \
  }                                                                            \
  static __attribute__((device)) __inline__ void NAME(                       \
      unsigned long *__ptr, unsigned long __value) {                           \
    if (sizeof(long) == 8)                                                     \
      NAME((unsigned long long *)__ptr, (unsigned long long)__value);          \
    else                                                                       \
      NAME((unsigned int *)__ptr, (unsigned int)__value);                      \
  }
__WARPLINT_LONG(__ldca)
__WARPLINT_LONG(__ldlu)
__WARPLINT_LONG_ST(__stwb)
__WARPLINT_LONG_ST(__stcg)
__WARPLINT_LONG_ST(__stcs)
#undef __WARPLINT_LD
#undef __WARPLINT_LD2
#undef __WARPLINT_LD4
#undef __WARPLINT_ST
#undef __WARPLINT_ST2
#undef __WARPLINT_ST4
#undef __WARPLINT_ALL
#undef __WARPLINT_LONG
#undef __WARPLINT_LONG_ST
