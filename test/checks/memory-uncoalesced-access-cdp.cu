// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 -fgpu-rdc | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// A launch from device code (dynamic parallelism, BezierLineCDP) starts a
// grid of its own: the child's parameters are the same in every lane of the
// child, not the parent's per-thread values.
// CHECK-NOT: warning
struct Line {
  float2 cp[3];
  float2 *pos;
  int n;
};
__global__ void child(int lidx, Line *lines, float *out) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  out[idx] = lines[lidx].cp[0].x; // a broadcast
}
__global__ void parent(Line *lines, float *out) {
  int lidx = threadIdx.x + blockDim.x * blockIdx.x;
  child<<<1, 32>>>(lidx, lines, out);
}
