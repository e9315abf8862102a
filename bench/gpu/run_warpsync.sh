#!/usr/bin/env bash
# On a machine with a GPU: each kernel of warp_sync.cu in a process of its
# own, plainly (8 s limit: a hung warp is killed, exit 137), under
# compute-sanitizer's racecheck and under its synccheck (15 s each); the logs
# go to $OUT/{plain,racecheck,synccheck}.txt. (The recorded run compiled this
# file with its comments and blank lines stripped, so its racecheck lines
# are those of the stripped file.)
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -lineinfo -arch="$arch" -o "$out/warp_sync" "$here/warp_sync.cu" || exit 1
kernels=$(grep -o 'RUN([a-z_]*)' "$here/warp_sync.cu" | sed 1d | cut -c5- | tr -d ')'
  grep -o 'RUN_Z([a-z_]*, [0-9]*)' "$here/warp_sync.cu" | sed 's/RUN_Z(\([a-z_]*\), \([0-9]*\))/\1_z\2/')
for k in ${ONLY:-$kernels}; do
  echo "== $k" >> "$out/plain.txt"
  timeout -s KILL 8 setsid "$out/warp_sync" "$k" >> "$out/plain.txt" 2>&1
  echo "rc=$?" >> "$out/plain.txt"
  for t in racecheck synccheck; do
    echo "== $k" >> "$out/$t.txt"
    timeout -s KILL 15 setsid compute-sanitizer --tool $t "$out/warp_sync" "$k" >> "$out/$t.txt" 2>&1
    echo "rc=$?" >> "$out/$t.txt"
  done
done
cat "$out/plain.txt"
