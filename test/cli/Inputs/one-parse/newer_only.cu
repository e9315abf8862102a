// Judged on one parse for sm_60: the feature header declares __nanosleep and
// __reduce_add_sync for it, annotated with their features, and
// arch-unsupported-feature judges each target by its table.
__global__ void k(unsigned *p) {
  __nanosleep(100);
  p[0] = __reduce_add_sync(0xffffffff, p[threadIdx.x]);
}
