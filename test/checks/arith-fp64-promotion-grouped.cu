// RUN: %warplint --checks='-*,arith-fp64-promotion' --arch=sm_61 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --ir-layer=false --checks='-*,arith-fp64-promotion' --arch=sm_61 %s -- -std=c++17 | FileCheck %s --check-prefix=AST --implicit-check-not='{{warning|error|note}}:'
// RUN: cp %s %t.cu && %warplint --fix --checks='-*,arith-fp64-promotion' --arch=sm_61 %t.cu -- -std=c++17 > /dev/null
// RUN: %strip-checks %t.cu > %t.fixed.cu && FileCheck %s --check-prefix=FIXED --input-file=%t.fixed.cu
// The fixed file has no FP64 instruction left: none in clang's -O3 IR ...
// RUN: %clangxx -x cuda --cuda-device-only -O3 -S -emit-llvm --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib -Wno-unknown-cuda-version -std=c++17 -DFIXED_ONLY -o - %t.fixed.cu | FileCheck %s --check-prefix=IR
// ... and none in nvcc's PTX (whose pow(float, int) is the double pow).
// RUN: %if nvcc %{ %python %S/Inputs/ptx_fp64_lines.py %cudapath/bin/nvcc %t.fixed.cu -DFIXED_ONLY | count 0 %}
// RUN: %if nvcc %{ %python %S/Inputs/ptx_fp64_lines.py %cudapath/bin/nvcc %s | FileCheck %s --check-prefix=PTX --implicit-check-not='f64 on line' %}
// Above three causes in one function, one finding for the function with the
// totals (and, from the IR layer, the share of its instructions that are
// FP64) and each cause as a note; three or fewer are reported one by one. A
// cause silenced by NOLINT does not count.
// IR-NOT: double
// IR: define
// IR-NOT: double
#include <cuda_runtime.h>
#include <cmath>

__global__ void many(float *out, const float *in) {
  // CHECK: :[[@LINE-1]]:17: warning: 'many' computes 5 float expressions in double precision: 2 literals, 2 'pow' calls and 1 double math call; about {{[0-9]+}}% of its instructions after -O3 are FP64 ({{[0-9]+}} of {{[0-9]+}}); FP64 runs at 1:32 of the FP32 rate on sm_61; write the literals with an f suffix (0.5f) and call powf and fmaxf (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // CHECK: :[[@LINE+12]]:21: note: 'in[i] * 0.1': the literal 0.1 promotes the float operand to double; write 0.1f
  // CHECK: :[[@LINE+14]]:18: note: '-1.3 * x': the literal 1.3 promotes the float operand to double; write 1.3f
  // CHECK: :[[@LINE+16]]:12: note: 'pow(x, 2)': nvcc's headers follow C++11, which has no pow(float, int), so both arguments are promoted to double; write x * x
  // CHECK: :[[@LINE+18]]:12: note: 'pow(in[1], 3)': nvcc's headers follow C++11, which has no pow(float, int), so both arguments are promoted to double; call powf
  // CHECK: :[[@LINE+20]]:12: note: 'fmax(x, 1)': 'fmax' is the double-precision overload for float arguments; call fmaxf
  // AST: :[[@LINE-7]]:17: warning: 'many' computes 5 float expressions in double precision: 2 literals, 2 'pow' calls and 1 double math call; FP64 runs at 1:32 of the FP32 rate on sm_61; write the literals with an f suffix (0.5f) and call powf and fmaxf (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // AST: :[[@LINE+6]]:21: note:
  // AST: :[[@LINE+8]]:18: note:
  // AST: :[[@LINE+10]]:12: note:
  // AST: :[[@LINE+12]]:12: note:
  // AST: :[[@LINE+14]]:12: note:
  int i = threadIdx.x;
  float x = in[i] * 0.1;
  // PTX: f64 on line [[@LINE-1]]
  // FIXED: {{^}}  float x = in[i] * 0.1f;{{$}}
  out[0] = expf(-1.3 * x);
  // PTX: f64 on line [[@LINE-1]]
  // FIXED: {{^}}  out[0] = expf(-1.3f * x);{{$}}
  out[1] = pow(x, 2);
  // PTX: f64 on line [[@LINE-1]]
  // FIXED: {{^}}  out[1] = (x * x);{{$}}
  out[2] = pow(in[1], 3);
  // PTX: f64 on line [[@LINE-1]]
  // FIXED: {{^}}  out[2] = powf(in[1], 3);{{$}}
  out[3] = fmax(x, 1);
  // PTX: f64 on line [[@LINE-1]]
  // FIXED: {{^}}  out[3] = fmaxf(x, 1);{{$}}
}

// Three: one finding each.
__global__ void few(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = x * 0.1;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // AST: :[[@LINE-2]]:16: warning: 'x * 0.1'
  // FIXED: {{^}}  out[0] = x * 0.1f;{{$}}
  // PTX: f64 on line [[@LINE-4]]
  out[1] = x * 0.3 + in[1];
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.3 + in[1]' is computed in double precision: the literal 0.3 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.3f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // AST: :[[@LINE-2]]:16: warning: 'x * 0.3 + in[1]'
  // FIXED: {{^}}  out[1] = x * 0.3f + in[1];{{$}}
  // PTX: f64 on line [[@LINE-4]]
  out[2] = sqrt(x * 2.0);
  // CHECK: :[[@LINE-1]]:21: warning: 'sqrt(x * 2.0)' is computed in double precision: the literal 2.0 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 2.0f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // AST: :[[@LINE-2]]:21: warning: 'sqrt(x * 2.0)'
  // FIXED: {{^}}  out[2] = sqrt(x * 2.0f);{{$}}
  // PTX: f64 on line [[@LINE-4]]
}

// Four, one of them under NOLINT: three findings.
#ifndef FIXED_ONLY
__global__ void suppressed(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = x * 0.1; // NOLINT(arith-fp64-promotion)
  // PTX: f64 on line [[@LINE-1]]
  out[1] = x * 0.2;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.2' is computed
  // AST: :[[@LINE-2]]:16: warning: 'x * 0.2' is computed
  // PTX: f64 on line [[@LINE-3]]
  out[2] = x * 0.3;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.3' is computed
  // AST: :[[@LINE-2]]:16: warning: 'x * 0.3' is computed
  // PTX: f64 on line [[@LINE-3]]
  out[3] = x * 0.4;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.4' is computed
  // AST: :[[@LINE-2]]:16: warning: 'x * 0.4' is computed
  // PTX: f64 on line [[@LINE-3]]
}
#endif
