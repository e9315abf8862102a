// RUN: %warplint --checks='-*,arith-unsigned-index' --arch=sm_61 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-unsigned-index' --arch=sm_90 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,arith-unsigned-index' --arch=sm_61,sm_75,sm_90 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --format=json --checks='-*,arith-unsigned-index' --arch=sm_61,sm_75,sm_90 %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
// Unsigned 32-bit index arithmetic in a loop, and unsigned subtractions that
// wrap, are the same on every target: one verdict, one finding for all the
// targets.
#include <cuda_runtime.h>
#include <cstddef>

// Index arithmetic that is unsigned 32-bit in a loop: nvcc -O3 cannot step a
// pointer through the loop and recomputes the 64-bit address every iteration
// (mul.lo and mul.wide.u32 in the PTX; with int, one add.s64).
__global__ void guide_example(float *out, const float *in, unsigned n,
                              unsigned offset, unsigned stride) {
  for (unsigned i = 0; i < n; i++) {
    out[i] = in[offset + stride * i];
    // CHECK: :[[@LINE-1]]:17: note: 'offset + stride * i' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'offset', 'stride' and 'i' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 17% of the operations a thread runs in 'guide_example' (1 address, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
    // JSON: "line": [[@LINE-2]],
    // JSON-NEXT: "column": 17,
    // JSON: "arch": [
    // JSON-NEXT: "sm_61",
    // JSON-NEXT: "sm_75",
    // JSON-NEXT: "sm_90"
  }
}
__global__ void unsigned_stride(float *out, const float *in, int n,
                                unsigned stride) {
  for (int i = 0; i < n; i++) {
    out[i] = in[i * stride] + in[i * stride + 1];
    // CHECK: :[[@LINE-1]]:17: note: 'i * stride' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'stride' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 22% of the operations a thread runs in 'unsigned_stride' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  }
}
__global__ void through_local(float *out, const float *in, unsigned n,
                              unsigned stride) {
  for (unsigned i = 0; i < n; i++) {
    unsigned j = i * stride;
    out[i] = in[j];
    // CHECK: :[[@LINE-1]]:17: note: 'j' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'j', 'i' and 'stride' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 20% of the operations a thread runs in 'through_local' (1 address, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  }
}
__global__ void block_loop(float *out, const float *in, int n) {
  for (unsigned i = threadIdx.x; i < n; i += 32) {
    out[i] = *(in + i * 2);
    // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'i' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 33% of the operations a thread runs in 'block_loop' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  }
}
__global__ void grid_stride_step(float *out, const float *in, unsigned n,
                                 unsigned w) {
  unsigned step = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    out[i] = in[i * w];
    // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'i', 'step', 'n' and 'w' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 36% of the operations a thread runs in 'grid_stride_step' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
    // CHECK: :[[@LINE-2]]:17: note: 'i * w' indexes 'in' the same way in the same loop, which needs 'w' too
  }
}
// Negative: a loop with an exit of its own has no trip count nvcc can
// compute, and an int counter compiles as the unsigned one does (the same
// widening each iteration, 13 against 13 PTX instructions): ggml's grid-
// stride loop with its "protect i0 from overflow" guard, a search that
// returns at its match.
__global__ void guarded_stride(float *out, const float *in, unsigned n) {
  const unsigned s = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) {
    out[i] = in[i] * 2;
    if (n - i <= s)
      break;
  }
}
__global__ void search(float *out, const float *in, unsigned n, unsigned w) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned i = 0; i < n; i++) {
    if (in[row * w + i] < 0)
      return;
    out[row * w + i] = 1;
  }
}
// Positive beside them: the break belongs to a switch inside the loop,
// which still runs its full trip count.
__global__ void switch_break(float *out, const float *in, unsigned n,
                             unsigned w, int mode) {
  for (unsigned i = 0; i < n; i++) {
    switch (mode) {
    case 0:
      out[i * w] = in[i];
      // CHECK: :[[@LINE-1]]:11: note: 'i * w' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the
      break;
    default:
      out[i * w] = 0;
    }
  }
}
__global__ void row_of_thread(float *od, const float *in, int w) {
  unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
  for (int x = 1; x < w; x++) {
    od[y * w + x] = in[x];
    // CHECK: :[[@LINE-1]]:8: note: 'y * w + x' indexes 'od' with unsigned 32-bit arithmetic in the loop over 'x': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'y' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 16% of the operations a thread runs in 'row_of_thread' (1 address, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  }
}
__global__ void counting_down(float *out, const float *in, unsigned n,
                              unsigned stride) {
  for (unsigned i = n; i > 0; i--) {
    out[i] = in[i * stride];
    // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'i' and 'stride' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 40% of the operations a thread runs in 'counting_down' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
    // CHECK: :[[@LINE-2]]:17: note: 'i * stride' indexes 'in' the same way in the same loop, which needs 'stride' too
  }
}
__global__ void lane_tiles(float4 *dst, const float *src, int n) {
  const unsigned lane = threadIdx.x % 32;
  for (int i = 0; i < n; i++) {
    dst[i] = *reinterpret_cast<const float4 *>(&src[8192 * i + (lane << 2)]);
    // CHECK: :[[@LINE-1]]:53: note: '8192 * i + (lane << 2)' indexes 'src' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'lane' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 11% of the operations a thread runs in 'lane_tiles' (1 address, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  }
}

// Silent: the counter alone or plus a constant (the loop bound keeps it from
// wrapping), 64-bit and signed arithmetic, shared and local arrays (32-bit
// addresses), a built-in in the index or the step (the idiomatic
// threadIdx.x / grid-stride code, where a declaration cannot help), values
// only compared, and host code (with its lambdas and constexpr helpers,
// which clang makes __host__ __device__ on its own).
__global__ void plain(float *out, const float *in, unsigned n, size_t m,
                      size_t wide, int istride) {
  for (unsigned i = 0; i < n; i++) {
    out[i] = in[i] + in[i + 1];
  }
  for (size_t i = 0; i < m; i++) {
    out[i] = in[i * wide];
  }
  for (int i = 0; i < int(n); i++) {
    out[i] = in[i * istride];
  }
}
__global__ void on_chip(float *out, unsigned n, unsigned stride) {
  __shared__ float tile[4096];
  float *row = tile + threadIdx.x;
  float regs[8] = {};
  float acc = 0;
  for (unsigned i = 0; i < n; i++) {
    acc += tile[i * stride] + row[i * 32];
  }
  for (unsigned i = 0; i < 4; i++) {
    acc += regs[i * 2];
  }
  out[threadIdx.x] = acc;
}
__global__ void builtins(float *out, const float *in, unsigned n, unsigned w) {
  for (unsigned r = 0; r < n; r++) {
    out[r] = in[r * w + threadIdx.x];
  }
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    out[i] = in[i * w];
  }
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    out[tid] = in[tid];
  }
}
// A constant trip count and a lane id: the compiler knows the index stays
// below 2^32, and the PTX is the same as with int.
__global__ void known_range(float4 *dst, const float *src) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < 16; i++) {
    dst[i] = *reinterpret_cast<const float4 *>(&src[8192 * i + (lane << 2)]);
  }
}
__global__ void compared_only(float *out, unsigned n) {
  float acc = 0;
  for (unsigned i = 0; i < n; i++) {
    if (i * 2 < n) {
      acc += 1.0f;
    }
  }
  out[0] = acc;
}
void host_loop(float *out, const float *in, unsigned n, unsigned stride) {
  for (unsigned i = 0; i < n; i++) {
    out[i] = in[i * stride];
  }
  auto copy = [&] {
    for (unsigned i = 0; i < n; i++) {
      out[i] = in[i * stride];
    }
  };
  copy();
}
constexpr unsigned sum_every(const unsigned *a, unsigned n, unsigned s) {
  unsigned r = 0;
  for (unsigned i = 0; i < n; i++) {
    r += a[i * s];
  }
  return r;
}

// A lambda in a kernel is device code.
__global__ void in_lambda(float *out, const float *in, unsigned n,
                          unsigned stride) {
  auto copy = [&] {
    for (unsigned i = 0; i < n; i++) {
      out[i] = in[i * stride];
      // CHECK: :[[@LINE-1]]:19: note: 'i * stride' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'i' and 'stride' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 20% of the operations a thread runs in 'operator()' (1 address, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
    }
  };
  copy();
}

// An unsigned subtraction in an index that wraps: on the first iteration, in
// thread 0, in block 0.
__global__ void differences(float *out, const float *in, unsigned n,
                            unsigned w) {
  for (unsigned i = 0; i < n; i++) {
    out[i] = in[i] - in[i - 1];
    // CHECK: :[[@LINE-1]]:25: warning: 'i - 1' wraps around to 4294967295 when 'i' is 0 (on the loop's first iteration): the subtraction is unsigned 32-bit, so 'in[i - 1]' is out of bounds; guard it with 'i >= 1' [arith-unsigned-index]
  }
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x - 1];
  // CHECK: :[[@LINE-1]]:24: warning: 'threadIdx.x - 1' wraps around to 4294967295 when 'threadIdx.x' is 0 (in thread 0): the subtraction is unsigned 32-bit, so 's[threadIdx.x - 1]' is out of bounds; guard it with 'threadIdx.x >= 1' [arith-unsigned-index]
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y;
  out[y * w + x] = in[(y - 1) * w + x];
  // CHECK: :[[@LINE-1]]:24: warning: 'y - 1' wraps around to 4294967295 when 'y' is 0 (in block 0): the subtraction is unsigned 32-bit, so 'in[(y - 1) * w + x]' is out of bounds; guard it with 'y >= 1' [arith-unsigned-index]
  unsigned tid = threadIdx.x;
  unsigned left = tid - 2;
  // CHECK: :[[@LINE-1]]:19: warning: 'tid - 2' wraps around to 4294967294 when 'tid' is 0 (in thread 0): the subtraction is unsigned 32-bit, so 's[left]' is out of bounds; guard it with 'tid >= 2' [arith-unsigned-index]
  out[tid] += s[left];
}

// Silent: a loop that starts at 1, guards (if, ?:, &&, an early continue or
// return, a lane computed from the index), a loop counting down to 1, a
// value the analysis knows nothing about, signed and 64-bit arithmetic, and
// comparisons.
__global__ void guarded(float *out, const float *in, unsigned n, unsigned k,
                        size_t m) {
  for (unsigned i = 1; i < n; i++) {
    out[i] = in[i] - in[i - 1];
    // (A loop from 1 costs a widening per unrolled copy.)
    // CHECK: :[[@LINE-2]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps
  }
  for (unsigned i = 0; i < n; i++) {
    if (i > 0) {
      out[i] = in[i - 1];
    }
    out[i] += i >= 1 && in[i - 1] > 0.0f ? in[i - 1] : 0.0f;
  }
  for (unsigned i = 0; i < n; i++) {
    if (i == 0) {
      continue;
    }
    out[i] = in[i - 1];
  }
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned lane = tid & 31;
  s[tid] = in[tid];
  __syncthreads();
  if (lane > 0) {
    out[tid] = s[tid - 1];
  }
  for (unsigned i = n; i > 0; i--) {
    out[i - 1] = in[i - 1];
    // (A loop counting down costs a widening per unrolled copy.)
    // CHECK: :[[@LINE-2]]:9: note: 'i - 1' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps
  }
  out[0] = in[k - 1] + in[(int)threadIdx.x - 1];
  for (size_t i = 0; i < m; i++) {
    out[i] = in[i - 1];
  }
  if (tid - 1 < n) {
    out[tid] = 0.0f;
  }
  if (tid == 0) {
    return;
  }
  out[tid] = s[tid - 1];
}

__global__ void suppressed(float *out, const float *in, unsigned n,
                           unsigned stride) {
  for (unsigned i = 0; i < n; i++) {
    out[i] = in[i * stride]; // NOLINT(arith-unsigned-index)
  }
}

// Every declaration the saving needs is named: each unsigned-indexed access
// of the loop costs its own widening, and a note says where each name comes
// from (a 'dword' that only the second access uses).
__global__ void pack(unsigned *dst, const unsigned *src, const unsigned *pos,
                     unsigned per) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned offset = tid * per;
  unsigned dword = pos[tid] / 32;
  for (unsigned i = 1; i < per; i++) {
    unsigned w = src[offset + i];
    // CHECK: :[[@LINE-1]]:22: note: 'offset + i' indexes 'src' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'offset', 'i' and 'dword' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 31% of the operations a thread runs in 'pack' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
    dst[dword + i] = w;
    // CHECK: :[[@LINE-1]]:9: note: 'dword + i' indexes 'dst' the same way in the same loop, which needs 'dword' too
  }
}

// Two loops whose indices need the same declaration changed ('stride'): one
// fix, one finding, the other loop as a note. Loops with declarations of
// their own ('s1', 's2') are two fixes and two findings.
__global__ void shared_stride(float *out, const float *in, int n,
                              unsigned stride) {
  for (int i = 0; i < n; i++)
    out[i] = in[i * stride];
  // CHECK: :[[@LINE-1]]:17: note: 'i * stride' indexes 'in' with unsigned 32-bit arithmetic in the 2 loops over 'i' and 'j': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'stride' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 17% of the operations a thread runs in 'shared_stride' (2 addresses, an instruction each, run 16 times a thread, loops of unknown length taken as 16 rounds), in a loop whose trip count is not written with constants, taken as rolled, where int saves an instruction or two an iteration that the loop's memory accesses hide [arith-unsigned-index]
  for (int j = 0; j < n; j++)
    out[j] += in[j * stride + 1];
  // CHECK: :[[@LINE-1]]:18: note: 'j * stride + 1' indexes 'in' the same way in the loop over 'j', which needs 'stride'
}
__global__ void own_strides(float *out, const float *in, int n, unsigned s1,
                            unsigned s2) {
  for (int i = 0; i < n; i++)
    out[i] = in[i * s1];
  // CHECK: :[[@LINE-1]]:17: note: 'i * s1' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps,
  for (int j = 0; j < n; j++)
    out[j] += in[j * s2];
  // CHECK: :[[@LINE-1]]:18: note: 'j * s2' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'j': unsigned overflow wraps,
}

// The bare counter is exempt only when the loop counts up by one from 0 to
// a strict bound: a step of 4 or of a variable may wrap past the bound (and
// then an unsigned exit test alone blocks the stepped pointer: the bound's
// declaration is named too), and a loop from another start or to an
// inclusive bound is unrolled with a widening per copy (nvcc -O3: one to
// three instructions an iteration).
__global__ void variable_step(float *out, const float *in, unsigned first,
                              unsigned n, unsigned stride) {
  for (unsigned i = first; i < n; i += stride)
    out[i] = in[i];
  // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the compiler 
}
__global__ void constant_step(float *out, const float *in, unsigned n) {
  for (unsigned i = 0; i < n; i += 4)
    out[i] = in[i];
  // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps, so the
}
__global__ void variable_start(float *out, const float *in, unsigned first,
                               int n) {
  for (unsigned i = first; i < n; i++)
    out[i] = in[i];
  // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps
}
__global__ void inclusive_bound(float *out, const float *in, int n) {
  for (unsigned i = 0; i <= n; i++)
    out[i] = in[i];
  // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps
}
// A thread-dependent start with a constant bound: the bound caps the index,
// but the loop stays a loop with a widening each iteration.
__global__ void capped(float *out, const float *in) {
  for (unsigned i = threadIdx.x; i < 4096; i += 64)
    out[i] = in[i * 3];
  // CHECK: :[[@LINE-1]]:9: note: 'i' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'i': unsigned overflow wraps
}
// Silent: up by one from 0 to a strict bound (++ or += 1), and a constant
// trip count (unrolled whole).
__global__ void bare_counters_fine(float *out, const float *in, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    out[i] = in[i + 1];
  for (unsigned i = 0; i < n; i += 1)
    out[i] = in[i];
  for (unsigned i = 0; i < 4096; i += 64)
    out[i] = in[i * 3];
}

// A loop that starts at an unsigned difference: for the threads where it
// wraps, the loop starts above its bound and does nothing.
__global__ void window(float *out, const float *in, unsigned n, unsigned w) {
  __shared__ float tile[1024];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (unsigned j = i - w; j <= i + w; j++)
    s += tile[j % 1024];
  // CHECK: :[[@LINE-2]]:21: warning: 'i - w' wraps around to a value near 2^32 when 'i' is below 'w' (it is 0 in thread 0 of block 0): the loop over 'j' then starts above its bound 'i + w' and is skipped without a word, so those threads do none of its work; start it at 'i < w ? 0 : i - w' to clip the range at 0, or guard the loop with 'i >= w' [arith-unsigned-index]
  unsigned lo = threadIdx.x - 2;
  for (unsigned j = lo; j < threadIdx.x + 3; j++)
    s += tile[j % 1024];
  // CHECK: :[[@LINE-3]]:17: warning: 'threadIdx.x - 2' wraps around to 4294967294 when 'threadIdx.x' is 0 (in thread 0): the loop over 'j' then starts above its bound 'threadIdx.x + 3' and is skipped without a word, so those threads do none of its work; start it at 'threadIdx.x < 2 ? 0 : threadIdx.x - 2' to clip the range at 0, or guard the loop with 'threadIdx.x >= 2' [arith-unsigned-index]
  out[i] = s;
}
// Silent: a guard, a clipped start, a signed counter, a minuend the
// analysis cannot bring below the constant, and one it knows nothing of.
__global__ void window_fine(float *out, const float *in, unsigned n,
                            unsigned w, unsigned k) {
  __shared__ float tile[1024];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  if (i >= w) {
    for (unsigned j = i - w; j <= i + w; j++)
      s += tile[j % 1024];
  }
  for (unsigned j = i < w ? 0 : i - w; j <= i + w; j++)
    s += tile[j % 1024];
  for (int j = int(i) - int(w); j <= int(i + w); j++)
    s += j >= 0 ? tile[j % 1024] : 0.0f;
  unsigned x = threadIdx.x + 4;
  for (unsigned j = x - 2; j < x + 3; j++)
    s += tile[j % 1024];
  for (unsigned j = k - w; j < k; j++)
    s += tile[j % 1024];
  out[i] = s;
}

// Two unrolled loops over the same index, each on its own counter: nvcc
// computes the offsets once for both (dct8x8: changing one counter alone
// adds an instruction, changing both saves 12), so one finding with a note.
__global__ void copy_rows(float *dst, const float *src, int stride) {
  __shared__ float tile[8 * 33];
  for (unsigned i = 0; i < 8; i++)
    tile[i * 33 + threadIdx.x] = src[i * stride];
  // CHECK: :[[@LINE-1]]:38: note: 'i * stride' indexes 'src' with unsigned 32-bit arithmetic in the 2 loops over 'i': unsigned overflow wraps
  __syncthreads();
  for (unsigned i = 0; i < 8; i++)
    dst[i * stride] = tile[i * 33 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:9: note: 'i * stride' indexes 'dst' the same way in the loop over 'i', which needs 'i'
}

// Silent: an address computed once an iteration of a loop that runs another
// loop each iteration ('out + i'); the widening is spread over the inner
// loop's work. The inner loop's own index is judged.
__global__ void paths(float *out, const float *rnd, unsigned n, unsigned steps) {
  unsigned step = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    float *path = out + i;
    float s = 1.0f;
    for (unsigned t = 0; t < steps; t++) {
      s *= rnd[t];
      path[t * n] = s;
      // CHECK: :[[@LINE-1]]:12: note: 't * n' indexes 'path' with unsigned 32-bit arithmetic in the loop over 't': unsigned overflow wraps, so the
    }
  }
}

// Severity from what the fix saves: a loop nvcc unrolls whole whose
// widened addresses are a material share of what a thread runs, in a
// function with work enough per memory access not to wait on memory, is a
// warning (nvcc -O3: 75 PTX instructions against 54 with int); the same
// index in a loop that only moves data (2 operations an access: 14-42%
// fewer instructions with int, no time saved on an H100), or as an
// epilogue after a long main loop, is a note.
__global__ void unrolled_work(float *out, const float *in, unsigned n) {
  unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) * n;
  float acc = 1.0f;
  for (unsigned k = 0; k < 8; k++) {
    float v = in[base + k];
    // CHECK: :[[@LINE-1]]:18: warning: 'base + k' indexes 'in' with unsigned 32-bit arithmetic in the loop over 'k'
    acc = acc * v + (v - acc) * 0.5f + 1.0f;
  }
  out[base] = acc;
}
__global__ void permute8(float *out, const float *in, unsigned n) {
  unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) * n;
  for (unsigned k = 0; k < 8; k++)
    out[base + k] = in[base + (k ^ 5)];
  // CHECK: :[[@LINE-1]]:9: note: 'base + k' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'k'
}
__global__ void epilogue(float *out, const float *a, const float *b, int K,
                         unsigned ldc) {
  float acc[8] = {};
  for (int k = 0; k < K; k++)
    for (int m = 0; m < 8; m++)
      acc[m] += a[k * 8 + m] * b[k * 8 + m] + a[k] * b[k] - a[m] * b[m];
  unsigned row = blockIdx.x * 8, col = threadIdx.x;
  for (unsigned m = 0; m < 8; m++)
    out[(row + m) * ldc + col] = acc[m];
  // CHECK: :[[@LINE-1]]:9: note: '(row + m) * ldc + col' indexes 'out' with unsigned 32-bit arithmetic in the loop over 'm': unsigned overflow wraps, so the compiler cannot turn the address into a pointer stepped each iteration and recomputes it with a 64-bit widening multiply (mul.wide.u32) instead; declare 'row', 'm', 'ldc' and 'col' int (CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. Unsigned'); that is about 0% of the operations a thread runs in 'ep
}

// Silent: a helper's pointer that every caller passes a __shared__ array
// for is addressed with 32 bits after inlining (ld.shared [%r1+4]); the
// same helper with a global pointer from one caller is judged.
__device__ void from_smem(float *acc, const float *As, unsigned ld) {
  for (unsigned k = 0; k < 8; k++)
    for (unsigned m = 0; m < 4; m++)
      acc[m] += As[k * ld + m * 33];
}
template <typename T>
__device__ void reset(volatile T s[4][33], unsigned w) {
  for (unsigned t = threadIdx.x; t < 4 * 33; t += w)
    s[t / 33][t % 33] = 0;
}
template <typename T> __global__ void tiles(T *out, unsigned ld) {
  __shared__ float As[8 * 33 * 4];
  __shared__ T s[4][33];
  float acc[4] = {};
  reset(s, blockDim.x);
  from_smem(acc, As, ld);
  out[threadIdx.x] = acc[0] + s[0][threadIdx.x % 33];
}
template __global__ void tiles<float>(float *, unsigned);

__device__ float sum_rows(const float *p, unsigned ld) {
  float s = 0;
  for (unsigned k = 0; k < 8; k++)
    s += p[k * ld];
  // CHECK: :[[@LINE-1]]:12: note: 'k * ld' indexes 'p' with unsigned 32-bit arithmetic in the loop over 'k'
  return s;
}
__global__ void mixed(float *out, const float *g, unsigned ld) {
  __shared__ float sh[8 * 64];
  out[threadIdx.x] = sum_rows(sh, ld) + sum_rows(g, ld);
}
