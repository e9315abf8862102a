#!/usr/bin/env bash
# On a machine with a GPU: the occupancy of each launch of occupancy.cu as
# the CUDA runtime computes it (CSV on stdout of the program) and as Nsight
# Compute reports it (launch__occupancy_limit_* and the theoretical
# occupancy), side by side.
set -euo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -arch="$arch" -o "$out/occupancy" "$here/occupancy.cu"
"$out/occupancy" > "$out/occupancy-runtime.csv"
ncu --csv --metrics launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,sm__maximum_warps_per_active_cycle_pct \
  "$out/occupancy" > "$out/occupancy-ncu.csv" 2> "$out/occupancy-ncu.err" || true
cat "$out/occupancy-runtime.csv"
