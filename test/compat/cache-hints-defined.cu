// The cache-hinted loads and stores that clang's intrinsics header leaves out
// (__ldca, __ldlu, __stwb, __stcg, __stcs) are defined by the compatibility
// header as nvcc's sm_32_intrinsics.hpp defines them: one PTX load or store
// with the cache operator, inlined. Declared only, each would be an external
// call in the device code, and the register compile of a kernel that writes
// with __stcs (llm.c's softmax and layernorm kernels) would count a call's
// registers, or not link.
// REQUIRES: cuda-toolkit
// RUN: %clangxx -x cuda --cuda-device-only -O2 -S --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version -include %share/include/compat/warplint_nvcc_compat.h %s -o - | FileCheck %s --implicit-check-not=call --implicit-check-not=.extern
#include <cuda_runtime.h>

// CHECK-LABEL: .entry _Z6scalarPfPKfPdPlPm(
// CHECK: ld.global.lu.f32
// CHECK: ld.global.ca.f32
// CHECK: st.global.cs.f32
// CHECK: st.global.wb.f64
// CHECK: ld.global.lu.s64
// CHECK: st.global.cg.s64
// CHECK: ld.global.ca.u64
// CHECK: st.global.wb.u64
__global__ void scalar(float *out, const float *in, double *d, long *l,
                       unsigned long *u) {
  float x = __ldlu(in + threadIdx.x) + __ldca(in);
  __stcs(out + threadIdx.x, x);
  __stwb(d, 2.0);
  __stcg(l + 1, __ldlu(l));
  __stwb(u + 1, __ldca(u));
}

// CHECK-LABEL: .entry _Z6vectorP6float4P4int4P5char2(
// CHECK: ld.global.ca.v4.f32
// CHECK: st.global.cg.v4.f32
// CHECK: ld.global.lu.v4.s32
// CHECK: st.global.cs.v4.s32
// CHECK: ld.global.ca.v2.s8
// CHECK: st.global.wb.v2.s8
__global__ void vector(float4 *v, int4 *q, char2 *c) {
  __stcg(v + threadIdx.x, __ldca(v));
  __stcs(q + threadIdx.x, __ldlu(q));
  __stwb(c + threadIdx.x, __ldca(c));
}
