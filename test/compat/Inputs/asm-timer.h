// A timer read the way cuda-samples' cudaGraphPerfScaling writes it: the
// special register spelled `%globaltimer_lo` beside an operand.
__device__ __forceinline__ unsigned timer_lo() {
  unsigned t;
  asm volatile("mov.u32 %0, %globaltimer_lo;" : "=r"(t));
  return t;
}
