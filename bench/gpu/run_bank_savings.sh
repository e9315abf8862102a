#!/usr/bin/env bash
# On a machine with a GPU: measure bench/gpu/bank_savings.cu's kernels as
# written and as fixed with Nsight Compute (second round of launches: warm).
# Writes ${OUT:-.}/bank-savings-ncu.csv; compare_bank_savings.py turns it
# into the table.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
nvcc -O3 -lineinfo -arch="${ARCH:-sm_90}" -o "$out/bank_savings" "$here/bank_savings.cu" || exit 1
"$out/bank_savings" || exit 1
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
metrics+=,lts__t_sectors_srcunit_tex.sum,dram__bytes.sum,gpu__time_duration.sum
ncu --launch-skip 20 --launch-count 20 --metrics "$metrics" --csv "$out/bank_savings" > "$out/bank-savings-ncu.csv" || exit 1
wc -l "$out/bank-savings-ncu.csv"
