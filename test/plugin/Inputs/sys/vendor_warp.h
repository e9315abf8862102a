// A third-party header found through -isystem: not the user's code.
#pragma once
__device__ inline float vendor_broadcast(float v) { return __shfl(v, 0); }
