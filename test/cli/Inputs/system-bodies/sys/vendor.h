#pragma once
// A vendor library's header, found through -isystem.

// A host-only function whose body clang could not compile: a device-side
// analysis never reads it, and the parse skips it.
inline int vendor_setup() { return vendor_undeclared_helper(); }

// A device function: its body is inlined into the user's kernel, and the
// access there is judged on it.
__device__ inline int vendor_row(int width) {
  return (blockIdx.x * blockDim.x + threadIdx.x) * width;
}

// A host-device one, the same.
__host__ __device__ inline int vendor_scale(int i) { return i * 32; }
