// RUN: not %warplint --checks='-*,warp-mask-divergent' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// A warp that walks a tree in lockstep (Burtscher's Barnes-Hut force
// kernel): lane 0 keeps the warp's stack in per-warp __shared__ slots, and
// every lane reads the same slot, so 'n' is one value per warp and the
// collectives under 'n < nbodies' are reached by the whole warp.
#define MAXDEPTH 64
__global__ void tree_walk(const int *childd, const float *posd, int nbodies, float *out, int maxdepth) {
  __shared__ int pos[8 * MAXDEPTH], node[8 * MAXDEPTH];
  const int base = threadIdx.x / 32;
  const int sbase = base * 32;
  const int diff = threadIdx.x - sbase;
  const int j = base * MAXDEPTH;
  if (diff == 0) { pos[j] = 0; node[j] = nbodies; }
  __syncwarp();
  int depth = j;
  while (depth >= j) {
    int pd, nd;
    while ((pd = pos[depth]) < 8) {
      nd = node[depth];
      int n = childd[nd * 8 + pd];
      if (diff == 0) pos[depth] = pd + 1;
      __syncwarp();
      if (n >= 0) {
        if (n < nbodies || __all_sync(0xffffffff, posd[n] > 0.f)) {
          out[threadIdx.x] += posd[n];
        } else {
          depth++;
          if (diff == 0) { pos[depth] = 0; node[depth] = n; }
          __syncwarp();
        }
      } else {
        depth = max(j, depth - 1);
      }
    }
    depth--;
  }
}

// The same look with a per-lane child: 'n' differs between lanes.
__global__ void tree_walk_per_lane(const int *childd, const float *posd, int nbodies, float *out, int maxdepth) {
  __shared__ int pos[8 * MAXDEPTH], node[8 * MAXDEPTH];
  const int base = threadIdx.x / 32;
  const int sbase = base * 32;
  const int diff = threadIdx.x - sbase;
  const int j = base * MAXDEPTH;
  if (diff == 0) { pos[j] = 0; node[j] = nbodies; }
  __syncwarp();
  int depth = j;
  while (depth >= j) {
    int pd, nd;
    while ((pd = pos[depth]) < 8) {
      nd = node[depth];
      int n = childd[nd * 8 + pd + diff];
      if (diff == 0) pos[depth] = pd + 1;
      __syncwarp();
      // CHECK: :[[@LINE-1]]:7: error: '__syncwarp' expects the full mask, but the lanes of a warp can leave the loop on '(pd = pos[depth]) < 8' after different numbers of iterati{{.*}}
      // CHECK: :[[@LINE-6]]:12: note: this loop's trip count varies between lanes
      // CHECK: :[[@LINE+22]]:5: note: the lanes that skip the call go on here
      // CHECK: :[[@LINE-4]]:7: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its{{.*}}
      if (n >= 0) {
        if (n < nbodies || __all_sync(0xffffffff, posd[n] > 0.f)) {
        // CHECK: :[[@LINE-1]]:28: error: '__all_sync' expects the full mask, but only the lanes where 'n < nbodies' holds reach it (the condition depends on each thread's data or a {{.*}}
        // CHECK: :[[@LINE-2]]:13: note: this condition can split the warp
        // CHECK: :[[@LINE+12]]:14: note: the lanes that skip the call go on here
        // CHECK: :[[@LINE-4]]:28: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its{{.*}}
          out[threadIdx.x] += posd[n];
        } else {
          depth++;
          if (diff == 0) { pos[depth] = 0; node[depth] = n; }
          __syncwarp();
          // CHECK: :[[@LINE-1]]:11: error: '__syncwarp' expects the full mask, but only the lanes where 'n < nbodies || __all_sync(0xffffffff, posd[n] > 0.f)' holds reach it (the cond{{.*}}
          // CHECK: :[[@LINE-11]]:13: note: this condition can split the warp
          // CHECK: :[[@LINE-12]]:67: note: the lanes that skip the call go on here
          // CHECK: :[[@LINE-4]]:11: note: take the mask before the branch (unsigned m = __ballot_sync(0xffffffff, cond); then pass m), or let the whole warp make the call and use its{{.*}}
        }
      } else {
        depth = max(j, depth - 1);
      }
    }
    depth--;
  }
}
