// The user's own __nanosleep: the headers of sm_70 and later declare the
// real one, which it may collide with, so a parse per target.
__device__ void __nanosleep(unsigned int ns) {}
__global__ void k() { __nanosleep(10); }
