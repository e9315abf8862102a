// The mistake as it was: --fix on a copy of this file, its exit status
// thrown away by ';', then FileCheck on the copy, which still holds the
// FIXED lines below, so each pattern matches its own comment.
// RUN: cp %s %t.cu && not %warplint --fix --arch=sm_80 %t.cu -- > /dev/null; FileCheck %s --check-prefix=FIXED < %t.cu
__global__ void k(float *out, float x) {
  *out = __shfl_down(x, 16);
  // FIXED: *out = __shfl_down_sync(0xffffffff, x, 16);
}
