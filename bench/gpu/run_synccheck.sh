#!/usr/bin/env bash
# On a machine with a GPU: run each kernel of barriers.cu under
# compute-sanitizer's synccheck (a hung kernel's process group is killed after
# a time limit) and print, per kernel, how many barrier errors it reports.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -lineinfo -arch="$arch" -o "$out/barriers" "$here/barriers.cu" || exit 1
for k in divergent_if kernel_early_return kernel_tail_if kernel_if_then_work \
         device_fn_return_then_barrier_in_helper \
         device_fn_return_before_barrier thread_trip_count warp_uniform_branch \
         tree_reduction cg_sync_divergent warp_split_both_arms; do
  log="$out/synccheck-$k.txt"
  timeout -s KILL 60 setsid compute-sanitizer --tool synccheck "$out/barriers" "$k" > "$log" 2>&1
  rc=$?
  n=$(grep -c "Barrier error" "$log")
  echo "$k rc=$rc barrier_errors=$n"
done
