// RUN: %warplint --checks='-*,host-transfer-in-loop' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// Host behaviour: the same verdict on every target, merged into one finding.
// RUN: %warplint --checks='-*,host-transfer-in-loop' --arch=sm_61,sm_80,sm_90 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// RUN: %warplint --checks='-*,host-transfer-in-loop' --arch=sm_61,sm_90 --format=json %s -- -std=c++17 | FileCheck %s --check-prefix=JSON
// Options: loops of 2 iterations or more count, and no copy is small.
// RUN: %warplint --arch=sm_80 --config-file=%S/Inputs/host-transfer-options.yaml %s -- -std=c++17 | FileCheck %s --check-prefix=OPTION
// JSON: "line": 32,
// JSON-NEXT: "column": 5,
// JSON-NEXT: "message": "blocking cudaMemcpy of 4194304 bytes (4 MiB) host-to-device
// JSON-NEXT: "arch": [
// JSON-NEXT: "sm_61",
// JSON-NEXT: "sm_90"
// JSON-NEXT: ],
// A blocking copy, a cudaDeviceSynchronize or an allocation freed again in a
// host loop that launches kernels serialises copies, host and kernels every
// iteration.
#include <cuda_runtime.h>

__global__ void k(float *a) { a[threadIdx.x] += 1.0f; }
__global__ void relax(float *a, int *changed) {
  if (a[threadIdx.x] > 1.0f)
    *changed = 1;
}
__device__ float table[1024];

constexpr int N = 1 << 20;

// ------------------------------------------------------------ positives

void copies(float *h, float *d, int n, int iters) {
  for (int i = 0; i < iters; ++i) {
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 4194304 bytes (4 MiB) host-to-device in a loop that launches 'k': each iteration waits for the GPU before the copy and for the copy before the next launch, so copies and kernels run back to back, never overlapped (Volta tuning guide 1.2: minimize data transfers between the host and the device); hoist the copy out of the loop, or use pinned memory and cudaMemcpyAsync on a stream [host-transfer-in-loop]
    // CHECK: :[[@LINE-3]]:3: note: the loop
    // CHECK: :[[@LINE+1]]:5: note: 'k' is launched here, in the same loop
    k<<<n / 256, 256>>>(d);
    // One finding per loop: the loop's other blocking copy is a note of it.
    // CHECK: :[[@LINE+1]]:5: note: also in this loop: blocking cudaMemcpy of 'n * sizeof(float)' bytes device-to-host
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int i = 0; i < iters; ++i) {
    k<<<n / 256, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 'n * sizeof(float)' bytes device-to-host in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'k' is launched here, in the same loop
  }
}

void upload(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
void step(float *d, int n) { k<<<n / 256, 256>>>(d); }
void finish() { cudaDeviceSynchronize(); }

// Through helpers, in a while loop.
void helpers(float *h, float *d, int n, int iters) {
  int i = 0;
  while (i < iters) {
    upload(d, h, n);
    // CHECK: :[[@LINE-1]]:5: warning: 'upload' makes a blocking cudaMemcpy of 'n * sizeof(float)' bytes host-to-device in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-3]]:3: note: the loop
    // CHECK: :[[@LINE+3]]:5: note: 'step' launches 'k'
    // CHECK: :[[@LINE-11]]:30: note: 'k' is launched here
    // CHECK: :[[@LINE-14]]:3: note: the cudaMemcpy, in 'upload'
    step(d, n);
    finish();
    // CHECK: :[[@LINE-1]]:5: note: also in this loop: 'finish' calls cudaDeviceSynchronize
    ++i;
  }
  while (i < 2 * iters) {
    step(d, n);
    finish();
    // CHECK: :[[@LINE-1]]:5: warning: 'finish' calls cudaDeviceSynchronize in a loop that launches 'k': the host waits for the GPU to go idle every iteration, so each launch starts on an idle GPU and nothing overlaps across iterations (Pascal deep dive, Streams: concurrent kernels, asynchronous data transfers); synchronize once after the loop, or on a stream or event where the host needs a result [host-transfer-in-loop]
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE-4]]:5: note: 'step' launches 'k'
    // CHECK: :[[@LINE-24]]:30: note: 'k' is launched here
    // CHECK: :[[@LINE-24]]:17: note: the cudaDeviceSynchronize, in 'finish'
    ++i;
  }
}

// Allocated and freed every iteration, in a do loop; a synchronisation
// after each launch.
void allocations(int n, int iters) {
  do {
    float *tmp;
    cudaMalloc(&tmp, n * sizeof(float));
    // CHECK: :[[@LINE-1]]:5: warning: cudaMalloc in a loop that launches 'k', and cudaFree in the same loop: device memory is allocated and freed every iteration, and cudaMalloc and cudaFree make the GPU synchronize across all streams (CUDA C++ Programming Guide, Stream-Ordered Memory Allocator); allocate once before the loop and free after it, or use cudaMallocAsync and cudaFreeAsync on a stream [host-transfer-in-loop]
    // CHECK: :[[@LINE-4]]:3: note: the loop
    // CHECK: :[[@LINE+2]]:5: note: 'k' is launched here, in the same loop
    // CHECK: :[[@LINE+4]]:5: note: freed here
    k<<<n / 256, 256>>>(tmp);
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: note: also in this loop: cudaDeviceSynchronize{{$}}
    cudaFree(tmp);
  } while (--iters > 0);
}

// A range-for over batches, a 2D copy, and a small read that only
// accumulates: a round trip per iteration, reported as a note.
struct Batches {
  float **First, **Last;
  float **begin() const { return First; }
  float **end() const { return Last; }
};
void ranges(const Batches &Work, float *d, size_t pitch, int n) {
  float total = 0;
  for (float *h : Work) {
    cudaMemcpy2D(d, pitch, h, 1024, 1024, 512, cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: blocking cudaMemcpy2D of 524288 bytes (512 KiB) host-to-device in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-3]]:3: note: the loop
    // CHECK: :[[@LINE+1]]:5: note: 'k' is launched here, in the same loop
    k<<<n / 256, 256>>>(d);
    float part;
    cudaMemcpy(&part, d, sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: note: also in this loop: blocking cudaMemcpy of 4 bytes device-to-host{{$}}
    total += part;
  }
  for (float *h : Work) {
    k<<<n / 256, 256>>>(h);
    float part;
    cudaMemcpy(&part, d, sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: note: blocking cudaMemcpy of 4 bytes device-to-host in a loop that launches 'k': the copy is small, but the host waits for the GPU to finish every iteration before it can queue the next launch (a round trip of latency, not bandwidth); keep the value on the device, or read it once after the loop [host-transfer-in-loop]
    // CHECK: :[[@LINE-5]]:3: note: the loop
    // CHECK: :[[@LINE-5]]:5: note: 'k' is launched here, in the same loop
    total += part;
  }
}

// The copy belongs to the outer loop, whose iterations launch through the
// inner one; a template's loop as written.
template <typename T> void nested(T *h, T *d, int n, int epochs) {
  for (int e = 0; e < epochs; ++e) {
    for (int s = 0; s < n; ++s)
      k<<<1, 256>>>(d);
    cudaMemcpyFromSymbol(h, table, sizeof(table), 0, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
    // The warning leads, though the note-sized read comes first.
    // CHECK: :[[@LINE-2]]:5: warning: blocking cudaMemcpy of 'n * sizeof(T)' bytes device-to-host in a loop that launches 'k': each iteration
    // CHECK: :[[@LINE-7]]:3: note: the loop
    // CHECK: :[[@LINE-6]]:7: note: 'k' is launched here, in the same loop
    // CHECK: :[[@LINE-6]]:5: note: also in this loop: blocking cudaMemcpyFromSymbol of 4096 bytes (4 KiB) device-to-host
  }
}

// ------------------------------------------------------------ negatives

// Copies before and after the loop, asynchronous and device-to-device
// copies, a small parameter upload (staged, the call returns at once), and a
// copy in a loop that launches nothing.
void outside(float *h, float *d, float *d2, int n, int iters, cudaStream_t s) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < iters; ++i) {
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpy(d2, d, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpy(d2, h, 64, cudaMemcpyHostToDevice);
    // OPTION: :[[@LINE-1]]:5: warning: blocking cudaMemcpy of 64 bytes host-to-device in a loop that launches 'k': each iteration
    k<<<n / 256, 256, 0, s>>>(d);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  }
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < iters; ++i)
    cudaMemcpy(h + i * n, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// Convergence flags and counts: the loop cannot go on without them.
bool converged(const int *d_changed) {
  int changed = 0;
  cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
  return changed == 0;
}
void solvers(float *d, int *d_changed, int *d_count, int n) {
  int changed = 1;
  while (changed) {
    cudaMemset(d_changed, 0, sizeof(int));
    relax<<<n / 256, 256>>>(d, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
  }
  for (int iter = 0; iter < n; ++iter) {
    relax<<<n / 256, 256>>>(d, d_changed);
    bool done;
    if (cudaMemcpy(&done, d_changed, sizeof(bool), cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return;
    if (done)
      break;
  }
  do {
    relax<<<n / 256, 256>>>(d, d_changed);
  } while (!converged(d_changed));
  for (int level = 0; level < n; ++level) {
    unsigned count;
    cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost);
    dim3 grid((count + 255) / 256);
    k<<<grid, 256>>>(d);
  }
}

// Allocation guarded to run once, grown on demand, or kept (one buffer per
// pyramid level); copies on the first iteration or every 100th.
void guarded(float *h, float **levels, int n, int iters) {
  float *buf = nullptr;
  size_t cap = 0;
  for (int i = 0; i < iters; ++i) {
    if (!buf)
      cudaMalloc(&buf, n * sizeof(float));
    size_t need = (i + 1) * sizeof(float);
    if (need > cap) {
      cudaFree(buf);
      cudaMalloc(&buf, need);
      cap = need;
    }
    if (i == 0)
      cudaMemcpy(buf, h, n * sizeof(float), cudaMemcpyHostToDevice);
    k<<<n / 256, 256>>>(buf);
    if (i % 100 == 0)
      cudaMemcpy(h, buf, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int l = 0; l < iters; ++l) {
    cudaMalloc(&levels[l], (n >> l) * sizeof(float));
    k<<<1, 256>>>(levels[l]);
  }
}

// Loops whose iterations do not add up: a benchmark timing each iteration,
// a handful of block sizes, one iteration per GPU, one per problem size.
void harnesses(float *h, float *d, int n, int reps, int gpus) {
  cudaEvent_t start, stop;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(start);
    k<<<n / 256, 256>>>(d);
    cudaEventRecord(stop);
    cudaDeviceSynchronize();
  }
  const int sizes[] = {64, 128, 256, 512};
  for (int block : sizes) {
    k<<<n / block, block>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int j = 0; j < 4; ++j) {
    k<<<n / 256, 256>>>(d);
    cudaDeviceSynchronize();
    // OPTION: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize in a loop that launches 'k'
  }
  for (int g = 0; g < gpus; ++g) {
    cudaSetDevice(g);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    k<<<n / 256, 256>>>(d);
  }
  for (int size = 1024; size <= n; size *= 2) {
    cudaMemcpy(d, h, size * sizeof(float), cudaMemcpyHostToDevice);
    k<<<size / 256, 256>>>(d);
    cudaMemcpy(h, d, size * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// A macro's do { ... } while (0) is not a loop.
#define LAUNCH_CHECKED(grid, block, arg)                                      \
  do {                                                                         \
    k<<<grid, block>>>(arg);                                                   \
    cudaDeviceSynchronize();                                                   \
  } while (0)
void macro(float *d, int n) { LAUNCH_CHECKED(n / 256, 256, d); }

// Device code, and a NOLINT.
__global__ void device_loop(float *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] += 1.0f;
}
void suppressed(float *h, float *d, int n, int iters) {
  for (int i = 0; i < iters; ++i) {
    k<<<n / 256, 256>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // NOLINT(host-transfer-in-loop)
  }
}
