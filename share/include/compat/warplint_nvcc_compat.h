// Declarations that nvcc's headers give host code and clang's CUDA wrapper
// headers do not, so that a file nvcc compiles also parses for analysis.
//
// warplint includes this header in every device parse, after the CUDA
// headers. It only declares: nothing here is defined, and nothing changes the
// meaning of code that clang already accepts (each declaration is __host__
// only, so device code resolves its calls exactly as before, and a host call
// that already had a viable candidate keeps it when that one is better).
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
// __ldcv and __stwt): __ldca, __ldlu, __stwb, __stcg and __stcs, declared
// __device__ for every type nvcc's header declares them for.
#define __WARPLINT_CACHE_HINTS(T)                                              \
  extern __attribute__((device)) T __ldca(const T *);                         \
  extern __attribute__((device)) T __ldlu(const T *);                         \
  extern __attribute__((device)) void __stwb(T *, T);                         \
  extern __attribute__((device)) void __stcg(T *, T);                         \
  extern __attribute__((device)) void __stcs(T *, T);
__WARPLINT_CACHE_HINTS(char)
__WARPLINT_CACHE_HINTS(signed char)
__WARPLINT_CACHE_HINTS(short)
__WARPLINT_CACHE_HINTS(int)
__WARPLINT_CACHE_HINTS(long)
__WARPLINT_CACHE_HINTS(long long)
__WARPLINT_CACHE_HINTS(unsigned char)
__WARPLINT_CACHE_HINTS(unsigned short)
__WARPLINT_CACHE_HINTS(unsigned int)
__WARPLINT_CACHE_HINTS(unsigned long)
__WARPLINT_CACHE_HINTS(unsigned long long)
__WARPLINT_CACHE_HINTS(char2)
__WARPLINT_CACHE_HINTS(char4)
__WARPLINT_CACHE_HINTS(short2)
__WARPLINT_CACHE_HINTS(short4)
__WARPLINT_CACHE_HINTS(int2)
__WARPLINT_CACHE_HINTS(int4)
__WARPLINT_CACHE_HINTS(longlong2)
__WARPLINT_CACHE_HINTS(uchar2)
__WARPLINT_CACHE_HINTS(uchar4)
__WARPLINT_CACHE_HINTS(ushort2)
__WARPLINT_CACHE_HINTS(ushort4)
__WARPLINT_CACHE_HINTS(uint2)
__WARPLINT_CACHE_HINTS(uint4)
__WARPLINT_CACHE_HINTS(ulonglong2)
__WARPLINT_CACHE_HINTS(float)
__WARPLINT_CACHE_HINTS(double)
__WARPLINT_CACHE_HINTS(float2)
__WARPLINT_CACHE_HINTS(float4)
__WARPLINT_CACHE_HINTS(double2)
#undef __WARPLINT_CACHE_HINTS
