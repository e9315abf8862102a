#!/usr/bin/env bash
# On a machine with a GPU: measure bench/gpu/index_savings.cu's kernels with
# unsigned and with int indices with Nsight Compute (second round: warm).
# Writes ${OUT:-.}/index-savings-ncu.csv; compare_index_savings.py turns it
# into the table.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
nvcc -O3 -lineinfo -arch="${ARCH:-sm_90}" -o "$out/index_savings" "$here/index_savings.cu" || exit 1
"$out/index_savings" || exit 1
metrics=smsp__inst_executed.sum,gpu__time_duration.sum
ncu --launch-skip 20 --launch-count 20 --metrics "$metrics" --csv "$out/index_savings" > "$out/index-savings-ncu.csv" || exit 1
wc -l "$out/index-savings-ncu.csv"
