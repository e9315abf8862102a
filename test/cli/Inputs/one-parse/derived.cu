// A macro the system headers define only for some targets: a parse per
// target.
#include <cooperative_groups.h>
#ifdef _CG_HAS_MATCH_COLLECTIVE
__global__ void k(int *p) { p[threadIdx.x] = 0; }
#endif
