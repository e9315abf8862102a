// RUN: not %warplint --checks='-*,warp-implicit-sync' --arch=sm_80 %s -- -std=c++17 | FileCheck %s --implicit-check-not='{{warning|error|note}}:'
// The shapes of pre-CUDA-9 warp-synchronous code: each positive beside a
// look-alike that synchronises (or where each lane touches only its slot).

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

// ---- the guard inside the helper
__device__ void reduceBlock(volatile float *s, float v, unsigned tid) {
  s[tid] = v;
  __syncthreads();
  if (tid < 32) {
    s[tid] = v = v + s[tid + 32];
    s[tid] = v = v + s[tid + 16];
    s[tid] = v = v + s[tid + 8];
  }
}
__global__ void guard_in_helper(const float *in) {
  __shared__ float s[1024];
  reduceBlock(s, in[threadIdx.x], threadIdx.x);
}
__device__ void reduceBlockSynced(volatile float *s, float v, unsigned tid) {
  s[tid] = v;
  __syncthreads();
  if (tid < 32) {
    v += s[tid + 32];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
    v += s[tid + 16];
    __syncwarp();
    s[tid] = v;
  }
}
__global__ void guard_in_helper_synced(const float *in) {
  __shared__ float s[1024];
  reduceBlockSynced(s, in[threadIdx.x], threadIdx.x);
}

// ---- two calls deep
__device__ void step2(volatile float *s, unsigned t) {
  s[t] += s[t + 16];
  s[t] += s[t + 8];
}
__device__ void step1(volatile float *s, unsigned t) {
  if (t < 32)
    step2(s, t);
}
__global__ void two_deep(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  step1(s, threadIdx.x);
}
__device__ void own2(volatile float *s, unsigned t) {
  s[t] += 1.0f;
  s[t] *= 2.0f;
}
__device__ void own1(volatile float *s, unsigned t) {
  if (t < 32)
    own2(s, t);
}
__global__ void two_deep_own_slot(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  own1(s, threadIdx.x);
}

// ---- a helper called with buf + t
__device__ void tail(volatile float *p) {
  p[0] += p[16];
  p[0] += p[8];
}
__global__ void offset_arg(float *out) {
  __shared__ float buf[64];
  unsigned t = threadIdx.x;
  buf[t] = out[t];
  __syncthreads();
  if (t < 32)
    tail(buf + t);
}
__device__ void own_tail(volatile float *p) {
  p[0] += 1.0f;
  p[0] *= 2.0f;
}
__global__ void offset_arg_own_slot(float *out) {
  __shared__ float buf[64];
  unsigned t = threadIdx.x;
  buf[t] = out[t];
  __syncthreads();
  if (t < 32)
    own_tail(buf + t);
}

// ---- a loop with a constant trip count
__global__ void loop_tail(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32)
    for (int o = 16; o > 0; o >>= 1)
      if (tid < o)
        s[tid] += s[tid + o];
}
__global__ void loop_tail_synced(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32)
    for (int o = 16; o > 0; o >>= 1) {
      if (tid < o)
        s[tid] += s[tid + o];
      __syncwarp();
    }
}

// ---- a loop every lane runs the same (run-time) number of times, XOR
__global__ void smooth(float *a, int steps) {
  __shared__ float s[1024];
  int lane = threadIdx.x;
  float v = a[threadIdx.x];
  for (int i = 0; i < steps; ++i) {
    s[lane] = v;
    __syncwarp();
    v = 0.5f * (v + s[lane ^ 1]);
  }
  a[threadIdx.x] = v;
}
__global__ void smooth_synced(float *a, int steps) {
  __shared__ float s[1024];
  int lane = threadIdx.x;
  float v = a[threadIdx.x];
  for (int i = 0; i < steps; ++i) {
    s[lane] = v;
    __syncwarp();
    v = 0.5f * (v + s[lane ^ 1]);
    __syncwarp();
  }
  a[threadIdx.x] = v;
}

// ---- XOR, straight
__global__ void butterfly(float *a) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = a[t];
  a[t] = s[t ^ 1];
}
__global__ void butterfly_synced(float *a) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = a[t];
  __syncwarp();
  a[t] = s[t ^ 1];
}

// ---- write after read
__global__ void shift(float *a) {
  __shared__ float s[1025];
  unsigned tid = threadIdx.x;
  s[tid + 1] = a[tid];
  __syncthreads();
  float t = s[tid];
  s[tid + 1] = t + 1.0f;
  a[tid] = t;
}
__global__ void shift_synced(float *a) {
  __shared__ float s[1025];
  unsigned tid = threadIdx.x;
  s[tid + 1] = a[tid];
  __syncthreads();
  float t = s[tid];
  __syncthreads();
  s[tid + 1] = t + 1.0f;
  a[tid] = t;
}

// ---- the samples' unrolled tail through SharedMemory<T>
template <class T, unsigned int blockSize>
__global__ void reduce4(T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n)
    mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile T *smem = sdata;
    if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];
    if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];
    if (blockSize >= 16) smem[tid] = mySum = mySum + smem[tid + 8];
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce4<float, 256>(float *, float *, unsigned);
template <class T, unsigned int blockSize>
__global__ void reduce4_synced(T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  T mySum = g_idata[blockIdx.x * blockSize + tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile T *smem = sdata;
    if (blockSize >= 64) {
      mySum += smem[tid + 32];
      __syncwarp();
      smem[tid] = mySum;
      __syncwarp();
    }
    if (blockSize >= 32) {
      mySum += smem[tid + 16];
      __syncwarp();
      smem[tid] = mySum;
      __syncwarp();
    }
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce4_synced<float, 256>(float *, float *, unsigned);

// ---- the tagged update of old histograms (warp-private sub-histograms)
__device__ void addData(volatile unsigned *s_WarpHist, unsigned data,
                        unsigned threadTag) {
  unsigned count;
  do {
    count = s_WarpHist[data] & 0x07FFFFFFU;
    count = threadTag | (count + 1);
    s_WarpHist[data] = count;
  } while (s_WarpHist[data] != count);
}
__device__ void addDataAtomic(unsigned *s_WarpHist, unsigned data) {
  atomicAdd(&s_WarpHist[data], 1u);
}
__device__ void retry(volatile unsigned *flags, unsigned i, unsigned v) {
  do {
    v += 1;
  } while (flags[i] != v); // reads only: not a tagged update
}

// ---- one site, two instantiations whose lanes differ: reported once
template <int N> __global__ void exchange_per_instance(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x < N)
    out[threadIdx.x] = s[threadIdx.x + N];
}
void launch_instances(float *out) {
  exchange_per_instance<8><<<1, 32>>>(out);
  exchange_per_instance<16><<<1, 32>>>(out);
}

// ---- expected findings (lines above)
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:22:22: error: lanes 0-15 of warp 0 read 's[tid + 16]', which lanes 16-31 of the same warp write at line 21, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:21:5: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:28:3: note: through this call
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:22:22: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:23:22: error: lanes 0-23 of warp 0 read 's[tid + 8]', which lanes 8-31 of the same warp write at line 22, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:22:5: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:28:3: note: through this call
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:23:22: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:51:11: error: lanes 0-23 of warp 0 read 's[t + 8]', which lanes 8-31 of the same warp write at line 50, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:50:3: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:61:3: note: through this call
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:55:5: note: through this call
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:51:11: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:81:11: error: lanes 0-23 of warp 0 read 'p[8]', which lanes 8-31 of the same warp write at line 80, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:80:3: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:89:5: note: through this call
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:81:11: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:113:19: error: lanes 0-7 of warp 0 read 's[tid + o]', which lanes 8-15 of the same warp write in an earlier iteration of the loop, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:113:9: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:113:19: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:134:5: error: lanes 0-31 of warp 0 write 's[lane]', which lanes 0-31 of the same warp read in an earlier iteration of the loop, with no __syncwarp() between the read and the write: a lane can overwrite the value before the other has read it unless the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:136:21: note: read here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:134:5: note: synchronise the lanes between the read and the write with __syncwarp(), or exchange the values with __shfl_sync; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:158:10: error: lanes 0-31 of warp 0 read 's[t ^ 1]', which lanes 0-31 of the same warp write at line 157, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:157:3: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:158:10: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:175:3: error: lanes 0-30 of warp 0 write 's[tid + 1]', which lanes 1-31 of the same warp read at line 174, with no __syncwarp() between the read and the write: a lane can overwrite the value before the other has read it unless the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:174:13: note: read here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:175:3: note: synchronise the lanes between the read and the write with __syncwarp(), or exchange the values with __shfl_sync; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:208:54: error: lanes 0-15 of warp 0 read 'smem[tid + 16]', which lanes 16-31 of the same warp write at line 207, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:207:26: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:208:54: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:209:54: error: lanes 0-23 of warp 0 read 'smem[tid + 8]', which lanes 8-31 of the same warp write at line 208, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:208:26: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:209:54: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:250:12: error: each lane writes 's_WarpHist[data]' and reads it back to see whether its own write survived (a tagged update): this counts on the lanes that collide on one address writing together, in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee; a lane that reads back before another overwrites keeps its count and the other's is lost (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:249:5: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:250:12: note: update the counter with atomicAdd on shared memory (one instruction since Maxwell) instead of the tag loop
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:266:24: error: lanes 0-7 of warp 0 read 's[threadIdx.x + N]', which lanes 8-15 of the same warp write at line 264, with no __syncwarp() between: this assumes the warp runs in lockstep (warp-synchronous code), which independent thread scheduling on sm_80 does not guarantee (Volta tuning guide 1.4.1.2) [warp-implicit-sync]
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:264:3: note: written here
// CHECK: {{.*}}warp-implicit-sync-shapes.cu:266:24: note: synchronise the lanes between the write and the read with __syncwarp(), or exchange the values with __shfl_down_sync / cooperative_groups::reduce; 'volatile' does not order lanes
