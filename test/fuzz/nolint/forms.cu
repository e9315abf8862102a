__global__ void k(int *a) {
  a[0] = __shfl(a[1], 0); // NOLINT
  // NOLINTNEXTLINE(warp-legacy-intrinsic)
  a[1] = __shfl(a[2], 0);
  // NOLINTBEGIN(warp-*, divergence-barrier)
  a[2] = __shfl(a[3], 0);
  // NOLINTEND(warp-*, divergence-barrier)
  a[3] = 0; // NOLINT(
  // NOLINTEND
  /* NOLINTBEGIN */
}
