// Operators, conversions, literals, lambdas and destructors called by name in
// device code (bench/source_fuzz.py): names that are no identifier, which
// NamedDecl::getName() asserts on. test/analysis/odd-code.test.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct V {
  float x;
  __device__ V operator+(const V &o) const { return {x + o.x}; }
  __device__ float operator()(int i) const { return x * i; }
  __device__ operator float() const { return x; }
  __device__ float operator[](int i) const { return x + i; }
  __device__ ~V() {}
};
__device__ V operator""_v(long double d) { return {float(d)}; }
template <typename T> __device__ T twice(T t) { return t + t; }

__global__ void k(float *a, int n) {
  int t = threadIdx.x;
  V v{a[t]}, w{1};
  V u = v + w;
  float f = u(t) + u[t] + float(u) + twice(u).x + (1.0_v).x;
  auto l = [=] __device__(int i) { return f * i; };
  f += l(t) + l.operator()(2);
  if (u(t) > 3)
    __syncthreads();
  v.~V();
  a[t * 2] = f;
  cg::thread_block b = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(b);
  tile = tile;
  tile.operator=(tile);
  tile.~thread_block_tile();
  b.~thread_block();
  a[tile.thread_rank()] = f;
}

int main() {
  float *d;
  cudaMalloc(&d, 1024);
  auto launch = [&](auto kern) { kern<<<1, 100>>>(d, 1); };
  launch(k);
  k<<<V{2}.operator float(), 64>>>(d, 1);
  return 0;
}
