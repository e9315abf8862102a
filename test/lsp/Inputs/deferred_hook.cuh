// A kernel of a header (in the preamble) calls an inline function the main
// file defines: inline, it is compiled for the device only because this
// kernel calls it, so its deferred diagnostic is found from here only.
inline __host__ __device__ int hook(int x);
__global__ void header_kernel(int *a) { a[0] = hook(a[0]); }
