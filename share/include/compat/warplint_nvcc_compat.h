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
