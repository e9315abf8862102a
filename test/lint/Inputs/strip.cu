// RUN: this line and the FileCheck lines go; the code and other comments stay.
#include <cuda_runtime.h>
__global__ void k(float *out, float x) {
  // CHECK: :[[@LINE+1]]:10: error: '__shfl_down'
  *out = __shfl_down_sync(0xffffffff, x, 16); // FIXED: *out = __shfl_down_sync
  // JSON-NEXT: "check"
  out[1] = x; // NOLINT(warp-legacy-intrinsic)
  out[2] = x; // fine: no finding
  out[3] = x; //CHECK-SAME: no space after the slashes
}
; CHECK-LABEL: in IR
# PASCAL: in a .test file
