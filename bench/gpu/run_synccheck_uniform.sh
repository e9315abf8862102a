#!/usr/bin/env bash
# On a machine with a GPU: barriers_uniform.cu's barrier kernels under
# compute-sanitizer's synccheck (a hung kernel's process group is killed after
# a time limit), then its early-exit kernels as wrong-output runs.
set -uo pipefail
# ONLY="k1 k2": just those kernels.
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
# synccheck checks nothing in a binary that uses dynamic parallelism ("CUDA
# Dynamic Parallelism is not supported by the selected tool"): the
# device-side launch has a binary of its own.
nvcc -O3 -lineinfo -arch="$arch" -o "$out/barriers_uniform" \
  "$here/barriers_uniform.cu" || exit 1
nvcc -O3 -lineinfo -arch="$arch" -DWITH_CDP -rdc=true \
  -o "$out/barriers_uniform_cdp" "$here/barriers_uniform.cu" -lcudadevrt || exit 1
for k in stride_cancelled stride_plain stride_per_group block_stride_256 \
         block_stride_250 stride_constant vote_through_shared work_queue \
         grid_sync_even_blocks parent_launch exit_loop_own_slot_sync \
         agent_flag shared_round scan_aggregate bound_is_block rows_of_block \
         bound_splits_block; do
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $k "* ]] && continue
  log="$out/synccheck-$k.txt"
  bin="$out/barriers_uniform"
  [ "$k" = parent_launch ] && bin="$out/barriers_uniform_cdp"
  timeout -s KILL 30 setsid compute-sanitizer --tool synccheck \
    "$bin" "$k" > "$log" 2>&1
  rc=$?
  n=$(grep -c "Barrier error" "$log")
  echo "$k rc=$rc barrier_errors=$n"
done
for k in exit_neighbour exit_mirror exit_histogram exit_own_slot \
         exit_loop_neighbour exit_loop_own_slot; do
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $k "* ]] && continue
  timeout -s KILL 30 "$out/barriers_uniform" "$k"
  echo "$k rc=$?"
done
