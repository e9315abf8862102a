// An N-body style update over an array of structs, and a warp vote that
// asks whether any particle of the warp left the box.
#include <cuda_runtime.h>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
};

__global__ void advance(Particle *p, int n, float dt, int *escaped) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool outside = false;
  if (i < n) {
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
    outside = fabsf(p[i].x) > 1.0f || fabsf(p[i].y) > 1.0f;
  }
  // Every lane votes: the branch above has re-converged here.
  if (__any(outside) && threadIdx.x % 32 == 0)
    atomicAdd(escaped, 1);
}

int main() {
  const int n = 1 << 20;
  Particle *p;
  int *escaped;
  cudaMalloc(&p, n * sizeof(Particle));
  cudaMalloc(&escaped, sizeof(int));
  advance<<<(n + 255) / 256, 256>>>(p, n, 0.01f, escaped);
  cudaDeviceSynchronize();
  cudaFree(p);
  cudaFree(escaped);
  return 0;
}
