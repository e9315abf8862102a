// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// Without the IR layer the AST's model of nvcc's narrowing gives the same.
// RUN: %warplint --ir-layer=false --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_90 %s -- -std=c++17 | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61,sm_75,sm_80 %s -- -std=c++17 | FileCheck %s --check-prefix=MERGED --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_75,sm_86 %s -- -std=c++17 | FileCheck %s --check-prefix=RATIOS
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: %warplint --cuda-path=%t.empty --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61 %s -- -std=c++17 2>/dev/null | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: cp %s %t.cu && %warplint --fix --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_80 %t.cu -- -std=c++17 > /dev/null 
// RUN: %strip-checks %t.cu | FileCheck %s --check-prefix=FIXED
// RUN: %if nvcc %{ %python %S/Inputs/ptx_fp64_lines.py %cudapath/bin/nvcc %s | FileCheck %s --check-prefix=PTX --implicit-check-not='f64 on line' %}
// Float code that an unsuffixed literal, a double constant or a double math
// overload turns into FP64 instructions: a warning where FP64 runs at 1:32 of
// the FP32 rate or slower (sm_61, sm_75: 1:32; sm_86: 1:64), a note on the
// 1:2 targets (sm_80, sm_90). The PTX run compiles this file with nvcc -O3
// and lists the lines that have FP64 instructions: every finding is on one,
// and the lines without a finding are double on purpose (or NOLINT).
#include <cuda_runtime.h>
#include <cmath>

#define PI_D 3.14159265358979
constexpr double kScale = 0.1;

// Float code that an unsuffixed literal, a double constant or a double math
// overload turns into double-precision instructions (nvcc -O3 emits mul.f64,
// fma.rn.f64, setp.f64, sqrt.rn.f64, max.f64, the double pow).
__global__ void literals(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  out[0] = x * 0.1;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:16: note: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:16: warning: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:16: note: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[0] = x * 0.1f;{{$}}
  // RATIOS: :[[@LINE-7]]:16: warning: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 and 1:64 of the FP32 rate on sm_75 and sm_86;
  out[1] = x * 0.5 + in[1];
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.5 + in[1]' is computed in double precision: the literal 0.5 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.5f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:16: note: 'x * 0.5 + in[1]' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:16: warning: 'x * 0.5 + in[1]' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:16: note: 'x * 0.5 + in[1]' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[1] = x * 0.5f + in[1];{{$}}
  if (x > 0.1) {
  // CHECK: :[[@LINE-1]]:11: warning: 'x > 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:11: note: 'x > 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:11: warning: 'x > 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:11: note: 'x > 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  if (x > 0.1f) {{{$}}
    out[2] = 0;
  }
  x *= 0.3;
  // CHECK: :[[@LINE-1]]:8: warning: 'x *= 0.3' is computed in double precision: the literal 0.3 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.3f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:8: note: 'x *= 0.3' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:8: warning: 'x *= 0.3' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:8: note: 'x *= 0.3' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  x *= 0.3f;{{$}}
  out[3] = expf(-0.5 * x * x);
  // CHECK: :[[@LINE-1]]:18: warning: '-0.5 * x * x' is computed in double precision: the literal 0.5 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.5f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:18: note: '-0.5 * x * x' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:18: warning: '-0.5 * x * x' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:18: note: '-0.5 * x * x' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[3] = expf(-0.5f * x * x);{{$}}
  out[4] = x * PI_D;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * PI_D' is computed in double precision: the literal 3.14159265358979 (from macro 'PI_D') promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 3.14159265358979f in macro 'PI_D' (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:16: note: 'x * PI_D' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:16: warning: 'x * PI_D' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:16: note: 'x * PI_D' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  out[5] = i * 0.25;
  // CHECK: :[[@LINE-1]]:16: warning: 'i * 0.25' is computed in double precision: the literal 0.25 promotes the integer operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.25f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:16: note: 'i * 0.25' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:16: warning: 'i * 0.25' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:16: note: 'i * 0.25' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  out[6] = (x > 0.0f ? x * 0.5 : x * 0.25);
  // CHECK: :[[@LINE-1]]:28: warning: 'x > 0.0f ? x * 0.5 : x * 0.25' is computed in double precision: the literal 0.5 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.5f and 0.25f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:28: note: 'x > 0.0f ? x * 0.5 : {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:28: warning: 'x > 0.0f ? x * 0.5 : {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:28: note: 'x > 0.0f ? x * 0.5 : {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[6] = (x > 0.0f ? x * 0.5f : x * 0.25f);{{$}}
  out[7] = 2.0 * x - 1.0;
  // CHECK: :[[@LINE-1]]:12: warning: '2.0 * x - 1.0' is computed in double precision: the literal 2.0 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 2.0f and 1.0f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:12: note: '2.0 * x - 1.0' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:12: warning: '2.0 * x - 1.0' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:12: note: '2.0 * x - 1.0' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[7] = 2.0f * x - 1.0f;{{$}}
}

__global__ void calls(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = sqrt(x * 2.0);
  // CHECK: :[[@LINE-1]]:21: warning: 'sqrt(x * 2.0)' is computed in double precision: the literal 2.0 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 2.0f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:21: note: 'sqrt(x * 2.0)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:21: warning: 'sqrt(x * 2.0)' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:21: note: 'sqrt(x * 2.0)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[0] = sqrt(x * 2.0f);{{$}}
  out[1] = fmax(x, 0.0);
  // CHECK: :[[@LINE-1]]:20: warning: 'fmax(x, 0.0)' is computed in double precision: the literal 0.0 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.0f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:20: note: 'fmax(x, 0.0)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:20: warning: 'fmax(x, 0.0)' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:20: note: 'fmax(x, 0.0)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[1] = fmax(x, 0.0f);{{$}}
  out[2] = pow(x, 2);
  // CHECK: :[[@LINE-1]]:12: warning: 'pow(x, 2)' is computed in double precision: nvcc's headers follow C++11, which has no pow(float, int), so both arguments are promoted to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write x * x (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:12: note: 'pow(x, 2)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:12: warning: 'pow(x, 2)' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:12: note: 'pow(x, 2)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[2] = (x * x);{{$}}
  out[3] = std::pow(x, 3);
  // CHECK: :[[@LINE-1]]:12: warning: 'std::pow(x, 3)' is computed in double precision: nvcc's headers follow C++11, which has no pow(float, int), so both arguments are promoted to double; FP64 runs at 1:32 of the FP32 rate on sm_61; call powf (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:12: note: 'std::pow(x, 3)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:12: warning: 'std::pow(x, 3)' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:12: note: 'std::pow(x, 3)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[3] = powf(x, 3);{{$}}
  out[4] = fmax(x, 1);
  // CHECK: :[[@LINE-1]]:12: warning: 'fmax(x, 1)' is computed in double precision: 'fmax' is the double-precision overload for float arguments; FP64 runs at 1:32 of the FP32 rate on sm_61; call fmaxf (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:12: note: 'fmax(x, 1)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:12: warning: 'fmax(x, 1)' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:12: note: 'fmax(x, 1)' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  out[4] = fmaxf(x, 1);{{$}}
}

__global__ void constants(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = x * kScale;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * kScale' is computed in double precision: the double constant 'kScale' promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; declare 'kScale' float (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:16: note: 'x * kScale' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:16: warning: 'x * kScale' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:16: note: 'x * kScale' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  double s = 0.7;
  // CHECK: :[[@LINE-1]]:10: warning: 'x * s' is computed in double precision: 's' is declared double; FP64 runs at 1:32 of the FP32 rate on sm_61; declare 's' float (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // CHECK: :[[@LINE+7]]:12: note: computed in double precision here
  // SM80: :[[@LINE-3]]:10: note: 'x * s' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // SM80: :[[@LINE+5]]:12: note: computed in double precision here
  // MERGED: :[[@LINE-5]]:10: warning: 'x * s' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE+3]]:12: note: computed in double precision here
  // MERGED: :[[@LINE-7]]:10: note: 'x * s' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // MERGED: :[[@LINE+1]]:12: note: computed in double precision here
  out[1] = x * s;
  // PTX: f64 on line [[@LINE-1]]
  out[2] = x * s + 1.0f;
  // PTX: f64 on line [[@LINE-1]]
}

// What nvcc narrows back to float (an exact literal in one operation, maybe
// negated, a comparison with one, a ?: of a float and a constant, an integer
// compared with a constant), constants, float overloads, and float4/SoA
// code.
__global__ void folded(float *out, const float *in, int n) {
  float x = in[threadIdx.x];
  out[0] = x * 0.5;
  out[1] = x / 2.0;
  out[2] = -0.25 * x;
  if (x < 0.0) {
    out[3] = 0;
  }
  x += 1.0;
  out[4] = threadIdx.x > 3 ? x : 0.1;
  if (n > 0.5) {
    out[5] = 1;
  }
  float y = 0.1;
  out[6] = sqrtf(x) + fminf(x, 0.1) + y;
  out[7] = sqrt(x) + exp(x) + fabs(x) + pow(x, 2.0f) + powf(x, 2);
  double h = 0.5;
  out[8] = x * h;
  double copy = x;
  out[9] = copy * copy;
  constexpr float third = 1.0 / 3.0;
  out[10] = x * third + float(2.0 * kScale);
  float4 v = reinterpret_cast<const float4 *>(in)[threadIdx.x];
  out[11] = v.x * 2.0f + v.w;
  out[12] = -(x * 0.5);
}

struct SoA {
  float *x;
  float *y;
};
__global__ void soa(SoA p, float a) {
  p.y[threadIdx.x] = a * p.x[threadIdx.x] + 1.0f;
}

// Double on purpose: a double* parameter, a double accumulator, a double
// parameter, an explicit conversion or a double intrinsic; integer
// arithmetic that goes through double and back with exact constants (the
// exactness may be the point, as it cannot be with 0.3).
__global__ void wants_double(double *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = x * 0.1;
  // PTX: f64 on line [[@LINE-1]]
  out[1] = x > 0.1 ? 1.0 : 0.0;
  // PTX: f64 on line [[@LINE-1]]
}
__global__ void accumulates(float *out, const float *in, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) {
  // PTX: f64 on line [[@LINE-1]]
    sum += in[i] * 0.1;
    // PTX: f64 on line [[@LINE-1]]
  }
  out[0] = sum * 0.5;
}
__device__ float scaled(double s, float x) { return x * s; }
__global__ void explicit_double(float *out, const float *in) {
  out[0] = (double)in[0] * 0.1;
  // PTX: f64 on line [[@LINE-1]]
  out[1] = __dmul_rn(in[1], 0.1);
  // PTX: f64 on line [[@LINE-1]]
}
__global__ void halves(int *out, const int *in) {
  out[0] = in[0] * 0.5;
  // PTX: f64 on line [[@LINE-1]]
  out[1] = sqrt(in[1]);
  // PTX: f64 on line [[@LINE-1]]
  out[2] = in[2] * 0.3;
  // CHECK: :[[@LINE-1]]:20: warning: 'in[2] * 0.3' is computed in double precision: the literal 0.3 promotes the integer operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.3f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:20: note: 'in[2] * 0.3' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:20: warning: 'in[2] * 0.3' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:20: note: 'in[2] * 0.3' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
}

// A __host__ __device__ function is device code too; host code and
// constexpr helpers and lambdas written in host code are not.
__host__ __device__ float both(float x) { return x * 0.1; }
  // CHECK: :[[@LINE-1]]:54: warning: 'x * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:54: note: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:54: warning: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:54: note: 'x * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // FIXED: {{^}}__host__ __device__ float both(float x) { return x * 0.1f; }{{$}}
void host_only(float *out, float x) {
  out[0] = x * 0.1;
  auto scale = [](float v) { return v * 0.1; };
  out[1] = scale(x);
}
constexpr float tenth(float x) { return x * 0.1; }
__global__ void device_lambda(float *out, float x) {
  auto scale = [](float v) -> float { return v * 0.1; };
  // CHECK: :[[@LINE-1]]:50: warning: 'v * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:50: note: 'v * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:50: warning: 'v * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:50: note: 'v * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
  // FIXED: {{^}}  auto scale = [](float v) -> float { return v * 0.1f; };{{$}}
  out[0] = scale(x);
}

// A template is judged per instantiation: the double one is silent, the
// float one is reported without a fix (the source serves both).
template <typename T> __global__ void generic(T *out, const T *in) {
  out[0] = in[0] * 0.1;
  // CHECK: :[[@LINE-1]]:20: warning: 'in[0] * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // SM80: :[[@LINE-2]]:20: note: 'in[0] * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_{{[89]0}};
  // MERGED: :[[@LINE-3]]:20: warning: 'in[0] * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:32 of the FP32 rate on sm_61 and sm_75;
  // MERGED: :[[@LINE-4]]:20: note: 'in[0] * 0.1' is computed in double precision: {{.*}}FP64 runs at 1:2 of the FP32 rate on sm_80;
  // PTX: f64 on line [[@LINE-5]]
}
template __global__ void generic<double>(double *, const double *);
template __global__ void generic<float>(float *, const float *);

__global__ void suppressed(float *out, float x) {
  out[0] = x * 0.1; // NOLINT(arith-fp64-promotion)
  // PTX: f64 on line [[@LINE-1]]
  out[1] = both(x);
}
