// RUN: %warplint --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --ir-layer=false --checks='-*,arith-fp64-promotion' --config-file=%S/Inputs/fp64-ungrouped.yaml --arch=sm_61 %s -- -std=c++17 -Wno-unused-variable | FileCheck %s --check-prefixes=CHECK,AST --implicit-check-not='{{warning|error|note}}:'
// RUN: %if nvcc %{ %python %S/Inputs/ptx_fp64_lines.py %cudapath/bin/nvcc %s | FileCheck %s --check-prefix=PTX --implicit-check-not='f64 on line' %}
// What nvcc computes at compile time: locals assigned literal arithmetic
// (a model file's constants, declared at the top and assigned once) leave
// no FP64 instruction at their line under -O3, however many unsuffixed
// literals they hold. The check judges them on the IR layer's -O3 view (no
// FP64 instruction survives at the expression), or, without it, by
// propagating the constants through the locals. A `pow` is not folded,
// even of constants: nvcc calls its double pow at run time, and what
// depends on it is FP64 too. The same expressions on values read from
// memory are reported beside them.
#include <cuda_runtime.h>
#include <cmath>

__device__ void model(float *in, float *out) {
  float pi, cellLength, cellRadius, Vcell, Vmyo, Vjunc, FoRT;
  pi = 3.1416;
  cellLength = 100;
  cellRadius = 10.25;
  FoRT = 96485.0 / 8314 / 310;
  Vcell = pi * cellRadius * cellRadius * cellLength * 1e-15;
  Vmyo = 0.65 * Vcell;
  Vjunc = 0.0539 * 0.01 * Vcell;
  // exp and sqrt of constants are folded too (libdevice's arithmetic).
  float Nao = 140, Ko = 5.4;
  float sigma = (exp(Nao / 67.3) - 1) / 7;
  float gks = 0.03 * sqrt(Ko / 5.4);
  out[0] = Vmyo * in[0] + Vjunc * in[1] + FoRT * in[2] + sigma + gks;

  // Through pow: computed at run time, in double.
  float Vsr = pi * pow(cellRadius, 2) * 1e-15;
  // CHECK: :[[@LINE-1]]:20: warning: 'pow(cellRadius, 2)' is computed in double precision: nvcc's headers follow C++11, which has no pow(float, int), so both arguments are promoted to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write cellRadius * cellRadius (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // CHECK: :[[@LINE-2]]:41: warning: 'pi * pow(cellRadius, 2) * 1e-15' is computed in double precision: the literal 1e-15 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 1e-15f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-3]]
  out[1] = 0.035 * Vsr;
  // CHECK: :[[@LINE-1]]:12: warning: '0.035 * Vsr' is computed in double precision: the literal 0.035 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.035f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]

  // The same shapes on data.
  float r = in[3];
  float v = pi * r * r * cellLength * 1e-15;
  // CHECK: :[[@LINE-1]]:39: warning: 'pi * r * r * cellLength * 1e-15' is computed in double precision: the literal 1e-15 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 1e-15f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]
  out[2] = 0.65 * v;
  // CHECK: :[[@LINE-1]]:12: warning: '0.65 * v' is computed in double precision: the literal 0.65 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.65f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]

  // Assigned twice: not one constant.
  float k = 0.5;
  k = in[4];
  out[3] = 0.3 * k;
  // CHECK: :[[@LINE-1]]:12: warning: '0.3 * k' is computed in double precision: the literal 0.3 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.3f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]
}

__global__ void run(float *in, float *out) { model(in, out); }

// A result nothing uses is removed by -O3 with its FP64 work: the IR view
// is silent where the AST, which cannot see that, reports it.
__global__ void unused(float *out, const float *in) {
  float x = in[threadIdx.x];
  float dead = x * 0.1;
  // AST: :[[@LINE-1]]:20: warning: 'x * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  out[threadIdx.x] = x;
}

// One widening of x serves both lines; -O3 narrows the first to float and
// keeps the conversion, with the first line's position, for the second.
__global__ void shared_widening(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = x * 0.5;
  out[1] = x * 0.1;
  // CHECK: :[[@LINE-1]]:16: warning: 'x * 0.1' is computed in double precision: the literal 0.1 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.1f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]
}

// A literal in a macro argument that the macro expands twice is one cause.
#define MAXOF(a, b) ((a) < (b) ? (b) : (a))
__global__ void macro_argument(float *out, const float *in) {
  float x = in[threadIdx.x];
  out[0] = MAXOF(x, 0.3) * in[1];
  // CHECK: :[[@LINE-1]]:21: warning: 'MAXOF(x, 0.3) * in[1]' is computed in double precision: the literal 0.3 promotes the float operand to double; FP64 runs at 1:32 of the FP32 rate on sm_61; write 0.3f (CUDA C++ Best Practices Guide, 'Other Arithmetic Instructions') [arith-fp64-promotion]
  // PTX: f64 on line [[@LINE-2]]
}
