// What a cudaDeviceSynchronize after each launch of a host loop costs,
// against the kernel's own time: host-transfer-in-loop warns on the wait
// after a short kernel and notes it after a kernel whose threads each run a
// long loop (256 rounds, or a serial walk of a run-time length).
// run_sync_in_loop.sh builds and runs it; each line: kernel, microseconds
// per iteration with a wait each iteration, without (one wait after the
// loop), the wait's cost per iteration and its share of the waited loop.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

constexpr int N = 1 << 20;
constexpr int Iters = 500;

// One element a thread: a few microseconds a launch.
__global__ void elementwise(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i] * 0.5f + 1.0f;
}
// A small grid of one element a thread (polybench's ADI and LU steps).
__global__ void tiny(float *a) { a[threadIdx.x] += 1.0f; }
// 256 dependent rounds a thread, each a load (ethash's DAG item).
__global__ void parents(unsigned *dag, unsigned *out) {
  unsigned h = blockIdx.x * blockDim.x + threadIdx.x;
  for (int p = 0; p < 256; ++p)
    h = h * 33 + __ldg(&dag[(h ^ p) & (N - 1)]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = h;
}
// A serial walk over a column of a run-time length (Gram-Schmidt's step).
__global__ void columnWalk(const float *a, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0;
  for (int r = 0; r < rows; ++r)
    s += a[r * cols + c] * a[r * cols + c];
  out[c] = s;
}

template <typename Launch> double perIteration(Launch L, bool Wait) {
  L();
  cudaDeviceSynchronize();
  double Best = 1e30;
  for (int Rep = 0; Rep < 5; ++Rep) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Iters; ++I) {
      L();
      if (Wait)
        cudaDeviceSynchronize();
    }
    cudaDeviceSynchronize();
    auto T1 = std::chrono::steady_clock::now();
    double Us = std::chrono::duration<double, std::micro>(T1 - T0).count();
    Best = Us / Iters < Best ? Us / Iters : Best;
  }
  return Best;
}

template <typename Launch> void report(const char *Name, Launch L) {
  double With = perIteration(L, true), Without = perIteration(L, false);
  std::printf("%-12s waited %9.2f us  unwaited %9.2f us  wait %6.2f us  "
              "share %5.1f%%\n",
              Name, With, Without, With - Without,
              100.0 * (With - Without) / With);
}

int main() {
  float *A, *Out;
  unsigned *Dag, *H;
  cudaMalloc(&A, sizeof(float) * N * 4);
  cudaMalloc(&Out, sizeof(float) * N);
  cudaMalloc(&Dag, sizeof(unsigned) * N);
  cudaMalloc(&H, sizeof(unsigned) * N);
  cudaMemset(A, 0, sizeof(float) * N * 4);
  cudaMemset(Dag, 1, sizeof(unsigned) * N);
  report("elementwise", [&] { elementwise<<<N / 256, 256>>>(A); });
  report("tiny", [&] { tiny<<<1, 256>>>(A); });
  report("parents", [&] { parents<<<N / 256, 256>>>(Dag, H); });
  // 2048 columns of 2048 rows: the polybench size.
  report("columnWalk",
         [&] { columnWalk<<<8, 256>>>(A, Out, 2048, 2048); });
  cudaError_t E = cudaGetLastError();
  if (E != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(E));
    return 1;
  }
  return 0;
}
