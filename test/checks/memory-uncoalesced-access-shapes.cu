// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_60 %s -- -std=c++17 | FileCheck %s --check-prefix=PASCAL
// RUN: %warplint --arch=sm_80 --dump-analysis %s -- -std=c++17 | FileCheck %s --check-prefix=DUMP
// The block shape of a kernel's launches, however the launch writes it: the
// warp model follows it. A naive transpose with 16x16 blocks: a warp is two
// rows of 16 threads (threadIdx.x 0-15, threadIdx.y y and y + 1), so its
// store out[x * H + y] touches 16 sectors (the two rows of one column share
// a sector), not the 32 of a warp along one row; the load in[y * H + x] is
// two runs of 64 contiguous bytes, 4 sectors: fine.
#include <cuda_runtime.h>

#define TILE 16
constexpr int kTile = 16;
const int kRows = 16;
static const dim3 kBlock(16, 16);

// With literals.
__global__ void literal(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:3: note: stage the data through shared memory
  // PASCAL: :[[@LINE-3]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_60
}
// Through a dim3 local never written after its initialisation.
__global__ void dim3_local(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// `dim3 b = dim3(16, 16)`.
__global__ void dim3_copy_init(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// `dim3 b{16, 16}`.
__global__ void dim3_braces(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Through a #define.
__global__ void macro(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Through a const int local.
__global__ void const_local(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Through constexpr and const globals.
__global__ void constexpr_global(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// A const global dim3.
__global__ void const_global_dim3(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Through an int local that keeps its initial value.
__global__ void int_local(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Launched from a function template: the instantiation has the value.
__global__ void from_template(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Through cudaLaunchKernel.
__global__ void api(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: the dim3 is changed after its initialisation.
__global__ void written_member(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: passed by reference to a function that may change it.
__global__ void by_reference(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: a lambda may change it.
__global__ void in_lambda(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: a run-time value.
__global__ void run_time(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: launched with two shapes.
__global__ void two_shapes(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// Not followed: two instantiations launch it with two shapes.
__global__ void two_instantiations(float *out, const float *in, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line) (assuming blockDim.x is a multiple of 32); it moves about 89% of the kernel's global sectors, and laying the data out for the warp would save about 78% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}
// A 1-D block of 16 threads is one warp of 16 lanes: 16 lanes 8 bytes apart
// touch 4 sectors for 64 bytes.
__global__ void half_warp(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 2] = 0.0f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp store of 'out[i * 2]' touches 4 32-byte sectors for 64 useful bytes (50% efficiency) on sm_80: consecutive lanes are 8 bytes apart; it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 50% of them [memory-uncoalesced-access]
}

// A 4x4 block is 16 lanes in 4 rows: 4 sectors for 64 bytes.
__global__ void tiny_block(float *out, int n) {
  out[threadIdx.y * n + threadIdx.x] = 0.0f;
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[threadIdx.y * n + threadIdx.x]' touches 4 32-byte sectors for 64 useful bytes (50% efficiency) on sm_80: the lanes are spread by (n * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 50% of them; the access is coalesced if (n * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}

// A kernel template launched with its tile size as the block.
template <int BS> __global__ void tiled(float *out, const float *in, int H) {
  int x = blockIdx.x * BS + threadIdx.x;
  int y = blockIdx.y * BS + threadIdx.y;
  out[x * H + y] = in[y * H + x];
  // CHECK: :[[@LINE-1]]:3: note: each warp store of 'out[x * H + y]' touches 16 32-byte sectors for 128 useful bytes (25% efficiency) on sm_80: the lanes are spread by (H * 4) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about 80% of the kernel's global sectors, and laying the data out for the warp would save about 60% of them; the access is coalesced if (H * 4) is 4 at run time, and the kernel compares none of its terms with anything, as it would a row length [memory-uncoalesced-access]
}

template <int BS> void launch(float *o, const float *i, int H) {
  dim3 b(BS, BS);
  tiled<BS><<<dim3(H / BS, H / BS), b>>>(o, i, H);
  from_template<<<dim3(H / BS, H / BS), dim3(BS, BS)>>>(o, i, H);
}

template <int BS> void launch_twice(float *o, const float *i, int H) {
  two_instantiations<<<1, dim3(BS, BS)>>>(o, i, H);
}

void grow(dim3 &b) { b.x *= 2; }

int main(int argc, char **argv) {
  float *a, *b;
  int H = 1024, n = 1 << 20;
  literal<<<dim3(64, 64), dim3(16, 16)>>>(a, b, H);
  dim3 block(16, 16);
  dim3_local<<<dim3(64, 64), block>>>(a, b, H);
  dim3 copied = dim3(16, 16);
  dim3_copy_init<<<dim3(64, 64), copied>>>(a, b, H);
  dim3 braces{16, 16};
  dim3_braces<<<dim3(64, 64), braces>>>(a, b, H);
  macro<<<dim3(64, 64), dim3(TILE, TILE)>>>(a, b, H);
  const int bs = 16;
  dim3 from_const(bs, bs);
  const_local<<<dim3(64, 64), from_const>>>(a, b, H);
  constexpr_global<<<dim3(64, 64), dim3(kTile, kRows)>>>(a, b, H);
  const_global_dim3<<<dim3(64, 64), kBlock>>>(a, b, H);
  int side = 16;
  int_local<<<dim3(64, 64), dim3(side, side)>>>(a, b, H);
  launch<16>(a, b, H);
  void *args[] = {&a, &b, &H};
  cudaLaunchKernel((const void *)api, dim3(64, 64), dim3(16, 16), args, 0, 0);
  half_warp<<<n / 16, 16>>>(a, n);
  tiny_block<<<1, dim3(4, 4)>>>(a, n);

  dim3 changed(16, 16);
  changed.x = 32;
  written_member<<<1, changed>>>(a, b, H);
  dim3 grown(16, 16);
  grow(grown);
  by_reference<<<1, grown>>>(a, b, H);
  dim3 captured(16, 16);
  auto widen = [&] { captured.x = 32; };
  widen();
  in_lambda<<<1, captured>>>(a, b, H);
  int t = 16;
  if (argc > 1)
    t = 32;
  run_time<<<1, dim3(t, t)>>>(a, b, H);
  two_shapes<<<1, dim3(16, 16)>>>(a, b, H);
  two_shapes<<<1, dim3(32, 8)>>>(a, b, H);
  launch_twice<16>(a, b, H);
  launch_twice<32>(a, b, H);
  return 0;
}

// DUMP: function 'literal' block 16x16x1
// DUMP: function 'dim3_local' block 16x16x1
// DUMP: function 'dim3_copy_init' block 16x16x1
// DUMP: function 'dim3_braces' block 16x16x1
// DUMP: function 'macro' block 16x16x1
// DUMP: function 'const_local' block 16x16x1
// DUMP: function 'constexpr_global' block 16x16x1
// DUMP: function 'const_global_dim3' block 16x16x1
// DUMP: function 'int_local' block 16x16x1
// DUMP: function 'from_template' block 16x16x1
// DUMP: function 'api' block 16x16x1
// DUMP: function 'written_member'{{$}}
// DUMP: function 'by_reference'{{$}}
// DUMP: function 'in_lambda'{{$}}
// DUMP: function 'run_time'{{$}}
// DUMP: function 'two_shapes'{{$}}
// DUMP: function 'two_instantiations'{{$}}
// DUMP: function 'half_warp' block 16x1x1
// DUMP: function 'tiny_block' block 4x4x1
// DUMP: function 'tiled' block 16x16x1

// A run-time z (llm.c's matmul_backward_bias: dim3(4, 8, block_size / 32)):
// a warp is the 4 x 8 lanes of one z-slice whatever z is, so the shape is
// still known; out[8 * x + y] is then 32 consecutive floats.
__global__ void runtime_z(float *out) {
  out[threadIdx.x * 8 + threadIdx.y] = threadIdx.z;
}
// A run-time z with 4 x 4 slices: a warp spans two z-slices, whose spacing
// depends on z; the default model stays.
__global__ void runtime_z_small(float *out) {
  out[threadIdx.x * 8 + threadIdx.y] = threadIdx.z;
  // CHECK: :[[@LINE-1]]:3: warning: each warp store of 'out[threadIdx.x * 8 + threadIdx.y]' touches 32 32-byte sectors for 128 useful bytes (13% efficiency) on sm_80: consecutive lanes are 32 bytes apart (assuming blockDim.x is a multiple of 32); it moves about 100% of the kernel's global sectors, and laying the data out for the warp would save about 88% of them [memory-uncoalesced-access]
}
void launch_runtime_z(float *out, int n) {
  dim3 block_dim = {4, 8, (unsigned)n};
  runtime_z<<<1, block_dim>>>(out);
  runtime_z_small<<<1, dim3(4, 4, n)>>>(out);
}
// DUMP: function 'runtime_z' block 4x8x?
// DUMP: function 'runtime_z_small'{{$}}
