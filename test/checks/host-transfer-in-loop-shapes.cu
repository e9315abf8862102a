// RUN: %warplint --checks='-*,host-transfer-in-loop' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// Shapes of real code that look like a transfer in a hot loop and are not,
// each beside the shape that is.
#include <chrono>
#include <cuda_runtime.h>

__global__ void k(float *a) { a[threadIdx.x] += 1.0f; }
__global__ void scale(float *a, float q) { a[threadIdx.x] *= q; }

// ------------------------------------------------ sizes through locals

// The size is a local assigned a constant: a 4-byte read of a sum whose value
// is the next launch's argument (it cannot leave the loop).
void statistics(float *d, float *d_sum, int n, int iters) {
  int bytes;
  float total;
  for (int i = 0; i < iters; ++i) {
    k<<<n / 256, 256>>>(d_sum);
    bytes = sizeof(float) * 1;
    cudaMemcpy(&total, d_sum, bytes, cudaMemcpyDeviceToHost);
    float mean = total / n;
    float q = mean * mean;
    scale<<<n / 256, 256>>>(d, q);
  }
  // Resolved to 4 bytes, but only summed: a round trip, a note.
  int one = sizeof(float);
  float sum = 0;
  for (int i = 0; i < iters; ++i) {
    k<<<n / 256, 256>>>(d_sum);
    cudaMemcpy(&total, d_sum, one, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: note: blocking cudaMemcpy of 4 bytes device-to-host in a loop that launches 'k': the copy is small
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
    sum += total;
  }
  // A local that two writes give different values is not a constant.
  int size = sizeof(float);
  for (int i = 0; i < iters; ++i) {
    k<<<n / 256, 256>>>(d_sum);
    cudaMemcpy(&total, d_sum, size, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 'size' bytes device-to-host in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
    scale<<<n / 256, 256>>>(d, total);
    size = n * sizeof(float);
  }
}

// ------------------------------------------------ timed repetitions

double wall_time();
struct StopWatch;
void sdkStartTimer(StopWatch **);
void sdkStopTimer(StopWatch **);

// A benchmark's repetitions between a timer start and stop: the synchronous
// baseline that a streamed version is compared against.
void baseline(float *h, float *d, int n, int reps, StopWatch *timer) {
  cudaEvent_t start, stop;
  cudaEventRecord(start, 0);
  for (int r = 0; r < reps; ++r) {
    k<<<n / 256, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  sdkStartTimer(&timer);
  dim3 grid(n / 256);
  for (int r = 0; r < reps; ++r) {
    k<<<grid, 256>>>(d);
    cudaDeviceSynchronize();
  }
  sdkStopTimer(&timer);
  auto begin = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) {
    k<<<grid, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  auto end = std::chrono::steady_clock::now();
  // Timed, but each iteration does other work (the counter feeds the
  // launch): the application's loop, timed as a whole.
  double t0 = wall_time();
  for (int t = 0; t < n; ++t) {
    k<<<t + 1, 256>>>(d);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'k': the host waits
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
  }
  double t1 = wall_time();
  // Repetitions with a timer start only, the stop after another loop.
  t0 = wall_time();
  for (int r = 0; r < reps; ++r) {
    k<<<grid, 256>>>(d);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'k': the host waits
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
  }
  for (int r = 0; r < reps; ++r)
    h[r] = 0;
  t1 = wall_time();
}

// ------------------------------------------------ logarithmic loops

// One pass per mipmap level or reduction pass: log2(n) iterations.
void passes(float *d, unsigned w, unsigned h, int n) {
  while (w != 1 || h != 1) {
    w /= 2;
    w = w > 1 ? w : 1;
    h /= 2;
    h = h > 1 ? h : 1;
    k<<<w * h, 256>>>(d);
    cudaDeviceSynchronize();
  }
  for (int left = n; left > 1; left = (left + 255) / 256) {
    k<<<left, 256>>>(d);
    cudaDeviceSynchronize();
  }
  for (int s = 1; s < n; s <<= 1) {
    k<<<n / 256, 256>>>(d);
    cudaDeviceSynchronize();
  }
  // Counted down one by one: n iterations.
  for (int left = n; left > 1; --left) {
    k<<<left, 256>>>(d);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'k': the host waits
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
  }
}

// ------------------------------------------------ data the host makes

float *next_frame(int i);
void fill(float *h, int i);
void show(const float *h);

// A frame decoded, or a buffer filled, by the host in the iteration: it
// cannot be copied before the loop, and the host makes it while the previous
// iteration's kernel runs.
void frames(float *h, float *d, int n, int count) {
  for (int f = 0; f < count; ++f) {
    float *frame = next_frame(f);
    cudaMemcpy(d, frame, n * sizeof(float), cudaMemcpyHostToDevice);
    k<<<n / 256, 256>>>(d);
  }
  for (int f = 0; f < count; ++f) {
    fill(h, f);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    k<<<n / 256, 256>>>(d);
  }
  for (int f = 0; f < count; ++f) {
    for (int i = 0; i < n; ++i)
      h[i] = f;
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    k<<<n / 256, 256>>>(d);
  }
  // The host only reads the buffer (a const pointer): the same data every
  // iteration, which can be copied once.
  for (int f = 0; f < count; ++f) {
    show(h);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 'n * sizeof(float)' bytes host-to-device in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE+1]]:5: note: 'k' is launched here, in the same loop
    k<<<n / 256, 256>>>(d);
  }
  // Written back by the runtime's own copy (the host computes on it in
  // between, srad's round trip): still the same buffer going back and forth.
  for (int f = 0; f < count; ++f) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 'n * sizeof(float)' bytes host-to-device in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-3]]:3: note: the loop
    // CHECK: :[[@LINE+2]]:5: note: 'k' is launched here, in the same loop
    // CHECK: :[[@LINE+2]]:5: note: also in this loop: blocking cudaMemcpy of 'n * sizeof(float)' bytes device-to-host
    k<<<n / 256, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// ------------------------------------------------ loops that wait anyway

// Each step reads back a count that decides whether the algorithm goes on,
// then keeps the step's level on the host: the loop waits for the GPU every
// iteration for the count, and the level's copy adds its bytes, not a wait.
void keepLevel(unsigned *h, const unsigned *d, int count) {
  cudaMemcpy(h, d, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
}
bool contract(float *d, unsigned *d_count, unsigned *h_level, int n) {
  k<<<n / 256, 256>>>(d);
  unsigned count;
  cudaMemcpy(&count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (count == 1)
    return true;
  keepLevel(h_level, d_count, count);
  return false;
}
void tree(float *h, float *d, unsigned *d_count, unsigned **h_levels, int n) {
  int level = 0;
  while (!contract(d, d_count, h_levels[level], n))
    ++level;
  int changed = 1;
  while (changed) {
    k<<<n / 256, 256>>>(d);
    cudaDeviceSynchronize();
    cudaMemcpy(&changed, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  // An upload in such a loop is still a transfer per iteration.
  changed = 1;
  while (changed) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 'n * sizeof(float)' bytes host-to-device in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-3]]:3: note: the loop
    // CHECK: :[[@LINE+1]]:5: note: 'k' is launched here, in the same loop
    k<<<n / 256, 256>>>(d);
    cudaMemcpy(&changed, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  }
  // Without a read-back that decides, the level's copy waits on its own.
  for (level = 0; level < n; ++level) {
    k<<<n / 256, 256>>>(d);
    keepLevel(h_levels[level], d_count, n);
    // CHECK: :[[@LINE-1]]:5: warning: 'keepLevel' makes a blocking cudaMemcpy of 'count * sizeof(unsigned)' bytes device-to-host in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
    // CHECK: :[[@LINE-39]]:3: note: the cudaMemcpy, in 'keepLevel'
  }
}

// ------------------------------------------------ long kernels, size sweeps

// Each thread walks a whole column (a run-time count, the same in every
// thread) or hashes 256 parents: the kernel runs far longer than a wait, so
// the wait is a note. A grid-stride loop shares its rounds among the threads
// and a 16-round loop is short: those waits stay warnings.
__global__ void columnSum(float *a, float *out, int rows, int cols) {
  float s = 0;
  for (int r = 0; r < rows; ++r)
    s += a[r * cols + blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void parents(unsigned *dag) {
  unsigned h = threadIdx.x;
  for (int p = 0; p < 256; ++p)
    h = h * 33 + dag[(h + p) & 1023];
  dag[threadIdx.x] = h;
}
__global__ void gridStride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] *= 2.0f;
}
__global__ void shortLoop(float *a) {
  for (int k = 0; k < 16; ++k)
    a[threadIdx.x * 16 + k] += 1.0f;
}

void longKernels(float *d, float *out, unsigned *dag, int rows, int iters) {
  for (int it = 0; it < iters; ++it) {
    columnSum<<<4, 256>>>(d, out, rows, 1024);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: note: cudaDeviceSynchronize in a loop that launches 'columnSum': the host waits for the GPU to go idle every iteration, but each thread of 'columnSum' runs the loop at line [[@LINE-24]] for a count known at run time ('r < rows'), the same in every thread, so the kernel likely runs far longer than the few microseconds a wait costs; the wait is a small share unless the kernel is short [host-transfer-in-loop]
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'columnSum' is launched here, in the same loop
  }
  for (int it = 0; it < iters; ++it) {
    parents<<<4, 256>>>(dag);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: note: cudaDeviceSynchronize in a loop that launches 'parents': the host waits for the GPU to go idle every iteration, but each thread of 'parents' runs the loop at line [[@LINE-25]] for 256 rounds, so
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'parents' is launched here, in the same loop
  }
  for (int it = 0; it < iters; ++it) {
    gridStride<<<4, 256>>>(d, rows);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'gridStride': the host waits
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'gridStride' is launched here, in the same loop
  }
  for (int it = 0; it < iters; ++it) {
    shortLoop<<<4, 256>>>(d);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'shortLoop': the host waits
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'shortLoop' is launched here, in the same loop
  }
}

// A test over problem sizes growing by 5% a step (its buffers made by
// helpers the check does not see): each size's result is copied back to be
// checked, once per size. An arithmetic step stays hot.
constexpr int N = 1 << 20;
void sizeSweep(float *h, float *d) {
  for (int count = 100; count <= N; count += count / 20) {
    k<<<count / 256 + 1, 256>>>(d);
    cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int count = 100; count <= N; count += 20) {
    k<<<count / 256 + 1, 256>>>(d);
    cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 4194304 bytes (4 MiB) device-to-host in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
  }
}
