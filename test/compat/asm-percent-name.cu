// A `%name` in inline assembly with operands (`mov.u64 %0, %globaltimer;`):
// clang reads `%g` as an operand modifier and rejects the string; nvcc
// passes it to ptxas as written, which is `%%globaltimer` in clang's
// reading. When those are the file's only errors it is analysed so, with a
// warning for each, and exits as a clean file does; the IR layer runs too
// (the merged load below is its finding).
// REQUIRES: cuda-toolkit
// RUN: %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -I%S/Inputs 2>&1 | FileCheck %s --implicit-check-not=error:
// Plain clang fails on it (the test can fail).
// RUN: not %clangxx -x cuda --cuda-device-only -fsyntax-only --cuda-gpu-arch=sm_80 --cuda-path=%cudapath -nogpulib --no-cuda-version-check -Wno-unknown-cuda-version -I%S/Inputs %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: asm-percent-name.cu:[[@LINE+12]]:{{[0-9]+}}: error: invalid % escape in inline assembly string
// CLANG-DAG: asm-timer.h:5:{{[0-9]+}}: error: invalid % escape in inline assembly string
// With another error beside them, every error stands.
// RUN: not %warplint --cuda-path=%cudapath --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -I%S/Inputs -DBROKEN 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN-DAG: asm-percent-name.cu:[[@LINE+8]]:{{[0-9]+}}: error: invalid % escape in inline assembly string
// BROKEN-DAG: error: use of undeclared identifier 'undeclared'
// BROKEN-NOT: warplint: warning: {{.*}} clang rejects
#include "asm-timer.h"

// CHECK-DAG: warplint: warning: {{.*}}asm-percent-name.cu:[[@LINE+3]]:29: clang rejects '%globaltimer' in inline assembly (invalid % escape), which nvcc passes to ptxas as written; analysed as '%%globaltimer'
__device__ __forceinline__ unsigned long long timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
// CHECK-DAG: warplint: warning: {{.*}}asm-timer.h:5:29: clang rejects '%globaltimer_lo'

struct Texel {
  unsigned char r, g, b, a;
  float depth;
};
__global__ void stamp(const Texel *in, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = timer() + timer_lo() + in[i].r + in[i].g + in[i].b + in[i].a;
  // CHECK-DAG: asm-percent-name.cu:[[@LINE-1]]:35: warning: each warp load of 'in[i].r' touches 8 32-byte sectors for 128 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; the compiler merges it with the accesses beside it into one 4-byte load per lane; it moves about 50% of the kernel's global sectors, and laying the data out for the warp would save about 25% of them [memory-uncoalesced-access]
#ifdef BROKEN
  undeclared();
#endif
}
