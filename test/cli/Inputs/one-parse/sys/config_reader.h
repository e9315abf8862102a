#pragma GCC system_header
// A vendor header that a configuration macro of its user selects from.
#ifdef CONFIG_WIDE
__device__ const float width = 2;
#else
__device__ const float width = 1;
#endif
