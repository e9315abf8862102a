#!/usr/bin/env bash
# On a machine with the CUDA toolkit: the shared loads ptxas emits for
# bench/gpu/lds_vector.cu's kernels (cuobjdump -sass), one line per kernel
# and LDS width. Writes ${OUT:-.}/lds-vector.txt.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
nvcc -O3 -arch="${ARCH:-sm_90}" -cubin -o "$out/lds_vector.cubin" "$here/lds_vector.cu" || exit 1
cuobjdump -sass "$out/lds_vector.cubin" |
  awk '/Function :/ {k = $3} /LDS/ {match($0, /LDS(\.[A-Z0-9]+)*/); print k, substr($0, RSTART, RLENGTH)}' |
  sort | uniq -c > "$out/lds-vector.txt"
cat "$out/lds-vector.txt"
