// The PTX warplint compiles for registers addresses memory as nvcc's does:
// shared memory through 32-bit pointers (nvcc's NVVM does; clang's default
// is 64-bit, a register pair per address), and __stcs, which clang's headers
// leave out, as the one st.global.cs nvcc's headers make of it, not a call.
__global__ void stream(float *out, const float *in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  __stcs(out + blockIdx.x * 256 + threadIdx.x, tile[255 - threadIdx.x]);
}
void launch(float *out, const float *in) { stream<<<64, 256>>>(out, in); }
