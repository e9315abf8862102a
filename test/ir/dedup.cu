// The IR layer next to the AST check: a barrier both layers find is reported
// once (the AST check's finding stays), --ir-layer=false leaves the AST
// check alone, and the IR layer's findings take every output format.
// REQUIRES: cuda-toolkit
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: not %warplint --checks='-*,divergence-barrier' --arch=sm_80 %s -- -std=c++17 \
// RUN:   | grep ' error: ' | cut -d: -f2 | sort | uniq -d | count 0
// RUN: not %warplint --checks='-*,divergence-barrier' --ir-layer=false --arch=sm_80 %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=AST --implicit-check-not='control-dependent on a thread-dependent branch'
// RUN: not %warplint --checks='-*,divergence-barrier' --ir-layer=only --arch=sm_80 --format=json %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// Off with the check: no IR layer either.
// RUN: %warplint --checks='-*,warp-legacy-intrinsic' --arch=sm_80 %s -- -std=c++17 | count 0

__device__ void helper(float *s) {
  s[threadIdx.x] = 0;
  __syncthreads();
  // BOTH: dedup.cu:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}[divergence-barrier]
  // AST: dedup.cu:[[@LINE-2]]:{{[0-9]+}}: error: {{.*}}[divergence-barrier]
}

__global__ void kernel(float *a) {
  __shared__ float s[256];
  if (a[threadIdx.x] > 0)
    helper(s);
  a[threadIdx.x] = s[threadIdx.x];
}

// JSON: "check": "divergence-barrier"
// JSON: "line": 18
// JSON: "message": "'__syncthreads()' may be reached by only part of the thread block
// JSON: "notes": [
// JSON: "line": 25
// JSON: "message": "the branch that splits the block"
// JSON: "line": 26
// JSON: "message": "called from 'kernel' here"
