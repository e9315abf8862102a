// RUN: %warplint --checks='-*,memory-uncoalesced-access' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error}}:'
// A column of a row-major array whose rows are a run-time length, read or
// written once per thread by a one-dimensional kernel (a halo packed for an
// exchange, a matrix's column gathered into a vector): each lane's sector
// holds one useful element and nothing in the kernel uses the rest, so no
// change inside the kernel saves a sector. The access is real (a note);
// the fix is the array's layout, which its other users set.

// The halo pack of a Jacobi solver: left and right columns of a block of
// (size.x + 2) doubles a row.
__global__ void pack_halo(const double *__restrict__ block, double *left,
                          double *right, int2 size) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size.y) {
    int start = (idx + 1) * (size.x + 2);
    left[idx] = block[start];
    // CHECK: :[[@LINE-1]]:17: note: each warp load of 'block[start]' touches 32 32-byte sectors for 256 useful bytes (25% efficiency) on sm_80: the lanes are spread by ((size.x + 2) * 8) bytes, a run-time value (taken here to be at least a 128-byte line); it moves about {{[0-9]+}}% of the kernel's global sectors, and laying the data out for the warp would save about {{[0-9]+}}% of them; the kernel is one-dimensional and runs it once per thread, and nothing else in it reads the rest of those rows: no change inside the kernel saves a sector, only a layout of the array that keeps this column contiguous, which its other users set, so this is a note
    // No fix inside the kernel to advise:
    // CHECK-NOT: stage the data through shared memory
    right[idx] = block[start + size.x + 1];
    // CHECK: :[[@LINE-1]]:18: note: each warp load of 'block[start + size.x + 1]' {{.*}} the kernel is one-dimensional and runs it once per thread, and nothing else in it reads the rest of those rows
  }
}

// The unpack: the same column, written.
__global__ void unpack_halo(double *__restrict__ block, const double *left,
                            int2 size) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size.y)
    block[(idx + 1) * (size.x + 2)] = left[idx];
  // CHECK: :[[@LINE-1]]:5: note: each warp store of 'block[(idx + 1) * (size.x + 2)]' {{.*}} nothing else in it writes the rest of those rows: no change inside the kernel saves a sector
}

// Negative: a loop walks each row, so the warp uses every byte of its
// sectors over the rounds: staging a tile, or a warp per row, saves.
__global__ void row_per_thread(const float *a, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int j = 0; j < n; ++j)
      s += a[i * n + j];
    // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'a[i * n + j]' touches 32 32-byte sectors
    y[i] = s;
  }
}

// Negative: the block's second dimension reads the next column (a naive
// transpose): a shared-memory tile saves.
__global__ void transpose_rows(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
  // CHECK: :[[@LINE-1]]:5: warning: each warp store of 'out[x * n + y]' touches 32 32-byte sectors
}

// Negative: the grid's second dimension writes the next column, through
// blockIdx.y alone.
__global__ void transpose_grid(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < n)
    out[x * n + blockIdx.y] = in[blockIdx.y * n + x];
  // CHECK: :[[@LINE-1]]:5: warning: each warp store of 'out[x * n + blockIdx.y]' touches 32 32-byte sectors
}

// Negative: a constant spacing is an array of records to split, not rows
// (warned as written).
__global__ void every_32nd(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK: :[[@LINE-1]]:12: warning: each warp load of 'in[i * 32]' touches 32 32-byte sectors
}

void launch(const double *block, double *left, double *right, int2 size) {
  pack_halo<<<(size.y + 255) / 256, 256>>>(block, left, right, size);
}
