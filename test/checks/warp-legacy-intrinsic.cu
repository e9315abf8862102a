// RUN: not %warplint --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,warp-legacy-intrinsic' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: not %warplint --checks='-*,warp-legacy-intrinsic' --arch=sm_70 %s -- -std=c++17 | FileCheck %s --check-prefix=VOLTA
// RUN: cp %s %t.cu && not %warplint --fix --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %t.cu -- -std=c++17 > /dev/null
// RUN: %strip-checks %t.cu | FileCheck %s --check-prefix=FIXED
#include <cuda_runtime.h>

__global__ void reduce(float *out, float x) {
  x += __shfl_down(x, 16);
  // CHECK: :[[@LINE-1]]:8: error: '__shfl_down' was removed on sm_70 and later (target sm_80): {{.*}} use '__shfl_down_sync' with a mask of the lanes that take part (Volta tuning guide 1.4.1.2) [warp-legacy-intrinsic]
  // PASCAL: :[[@LINE-2]]:8: warning: '__shfl_down' is deprecated (target sm_60): it was removed on sm_70 and later{{.*}}[warp-legacy-intrinsic]
  // VOLTA: :[[@LINE-3]]:8: error: '__shfl_down' was removed on sm_70 and later (target sm_70)
  // FIXED: x += __shfl_down_sync(0xffffffff, x, 16);
  if (threadIdx.x < 8)
    x += __shfl_down(x, 4);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down'
  // CHECK: :[[@LINE-3]]:7: note: no automatic fix: only some lanes reach this call; the mask must name exactly the lanes that reach the call
  // FIXED: x += __shfl_down(x, 4);
  x += __shfl_down_sync(0xffffffff, x, 2); // fine: no finding
  *out = x;
}

// Every legacy intrinsic, in code the whole warp reaches.
__global__ void all_forms(int *out, float v, int p) {
  float a = __shfl(v, 0);
  // CHECK: :[[@LINE-1]]:13: error: '__shfl' was removed {{.*}} use '__shfl_sync'
  // FIXED: float a = __shfl_sync(0xffffffff, v, 0);
  float b = __shfl_up(v, 1);
  // CHECK: :[[@LINE-1]]:13: error: '__shfl_up' was removed {{.*}} use '__shfl_up_sync'
  // FIXED: float b = __shfl_up_sync(0xffffffff, v, 1);
  float c = __shfl_xor(v, 1, 16);
  // CHECK: :[[@LINE-1]]:13: error: '__shfl_xor' was removed {{.*}} use '__shfl_xor_sync'
  // FIXED: float c = __shfl_xor_sync(0xffffffff, v, 1, 16);
  unsigned m = __ballot(p > 0);
  // CHECK: :[[@LINE-1]]:16: error: '__ballot' was removed {{.*}} use '__ballot_sync'
  // FIXED: unsigned m = __ballot_sync(0xffffffff, p > 0);
  int any = __any(p);
  // CHECK: :[[@LINE-1]]:13: error: '__any' was removed {{.*}} use '__any_sync'
  // FIXED: int any = __any_sync(0xffffffff, p);
  int all = __all(p);
  // CHECK: :[[@LINE-1]]:13: error: '__all' was removed {{.*}} use '__all_sync'
  // FIXED: int all = __all_sync(0xffffffff, p);
  out[threadIdx.x] = (int)(a + b + c) + m + any + all;
}

// A warp reduction: the loop's trip count is the same in every lane, so the
// full mask is right.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down'
  // FIXED: v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// A template that is never instantiated is still seen.
template <typename T> __device__ T warp_max(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = max(v, __shfl_xor(v, offset));
  // CHECK: :[[@LINE-1]]:16: error: '__shfl_xor'
  // FIXED: v = max(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

// Branches that keep whole warps together: the warp id and a vote.
__global__ void warp_uniform_branches(float *out, float v) {
  if (threadIdx.x / 32 == 0)
    v = __shfl_xor(v, 16);
  // CHECK: :[[@LINE-1]]:9: error: '__shfl_xor'
  // FIXED: v = __shfl_xor_sync(0xffffffff, v, 16);
  if (__any_sync(0xffffffff, v > 0.0f))
    v += __shfl_down(v, 1);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_down'
  // FIXED: v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}

// A grid-stride loop: lanes leave it at different iterations.
__global__ void grid_stride(const int *in, unsigned *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = __ballot(in[i] > 0);
  // CHECK: :[[@LINE-1]]:14: error: '__ballot'
  // CHECK: :[[@LINE-4]]:55: note: no automatic fix: only some lanes reach this call
  // FIXED: out[i] = __ballot(in[i] > 0);
}

// A device function's parameter may differ between lanes.
__device__ float shift_low_half(float v, int lane) {
  if (lane < 16)
    v = __shfl_up(v, 1);
  // CHECK: :[[@LINE-1]]:9: error: '__shfl_up'
  // CHECK: :[[@LINE-3]]:7: note: no automatic fix: this condition may depend on the thread, so not every lane may reach this call
  return v;
}

// Threads that return early from a device function do not reach the call.
__device__ float after_early_return(float v) {
  if (threadIdx.x % 2)
    return v;
  return __shfl(v, 0);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl'
  // CHECK: :[[@LINE-3]]:5: note: no automatic fix: threads that leave here do not reach this call
}

// Through a user's macro: reported where the macro is used.
#define WARP_BROADCAST(v) __shfl(v, 0)
__global__ void via_macro(float *out, float v) {
  out[threadIdx.x] = WARP_BROADCAST(v);
  // CHECK: :[[@LINE-1]]:22: error: '__shfl'
  // CHECK: :[[@LINE-4]]:27: note: no automatic fix: the call is written in the body of macro 'WARP_BROADCAST'
}

// Suppressed.
__global__ void suppressed(float *out, float v) {
  out[0] = __shfl(v, 0); // NOLINT(warp-legacy-intrinsic)
  // NOLINTNEXTLINE(warp-*)
  out[1] = __shfl(v, 1);
  out[2] = __shfl(v, 2); // NOLINT(memory-*)
  // CHECK: :[[@LINE-1]]:12: error: '__shfl'
  // FIXED: out[0] = __shfl(v, 0); // NOLINT(warp-legacy-intrinsic)
  // FIXED: out[1] = __shfl(v, 1);
  // FIXED: out[2] = __shfl_sync(0xffffffff, v, 2); // NOLINT(memory-*)
}

// Look-alikes that are fine: the _sync forms, members and variables that are
// called __any, and a user's own function in a namespace.
struct Flags {
  __device__ bool __any(int bits) const { return bits != 0; }
};
namespace mylib {
__device__ unsigned __ballot(int p) { return p ? 1u : 0u; }
} // namespace mylib
__global__ void look_alikes(unsigned *out, float v, int p) {
  Flags f;
  int __all = p + 1;
  unsigned mask = __activemask();
  out[0] = __ballot_sync(0xffffffff, p) + __any_sync(mask, p) +
           __all_sync(0xffffffff, p) + (unsigned)__shfl_sync(mask, v, 0) +
           __shfl_xor_sync(0xffffffff, p, 1) + f.__any(p) + __all +
           mylib::__ballot(p);
}

// Lambdas, member functions and members of class templates are functions
// too; their bodies are judged on their own.
__global__ void with_lambda(float *out, float v) {
  auto bcast = [](float x) { return __shfl(x, 0); };
  // CHECK: :[[@LINE-1]]:37: error: '__shfl'
  // FIXED: auto bcast = [](float x) { return __shfl_sync(0xffffffff, x, 0); };
  out[threadIdx.x] = bcast(v);
}
struct Shifter {
  __device__ float up(float v) { return __shfl_up(v, 1); }
  // CHECK: :[[@LINE-1]]:41: error: '__shfl_up'
  // FIXED: __device__ float up(float v) { return __shfl_up_sync(0xffffffff, v, 1); }
};
template <int N> struct Butterfly {
  __device__ float step(float v) { return __shfl_xor(v, N); }
  // CHECK: :[[@LINE-1]]:43: error: '__shfl_xor'
  // FIXED: __device__ float step(float v) { return __shfl_xor_sync(0xffffffff, v, N); }
};
__global__ void use_butterfly(float *out, float v) {
  Butterfly<4> b;
  out[threadIdx.x] = b.step(v);
}
