#!/usr/bin/env bash
# On a machine with a GPU: barriers_uniform.cu's grid-barrier kernels, each
# a cooperative launch of 4 blocks of 64 threads, run with a time limit: a
# grid barrier that some blocks never reach hangs (the process group is
# killed, rc 137), one that every block reaches returns.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -lineinfo -arch="$arch" -o "$out/barriers_uniform" \
  "$here/barriers_uniform.cu" || exit 1
for k in grid_sync_block_stride_6 grid_sync_block_stride_8 grid_sync_rank \
         grid_sync_first_block_last grid_sync_argument grid_sync_even_blocks; do
  timeout -s KILL 20 setsid "$out/barriers_uniform" "$k" > "$out/grid-$k.txt" 2>&1
  rc=$?
  echo "$k rc=$rc $( [ $rc = 137 ] && echo hung || tail -1 "$out/grid-$k.txt")"
done
