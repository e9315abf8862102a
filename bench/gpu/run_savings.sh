#!/usr/bin/env bash
# On a machine with a GPU: measure bench/gpu/savings.cu's kernels as written
# and as fixed with Nsight Compute (second round of launches: warm). Writes
# ${OUT:-.}/savings-ncu.csv; compare_savings.py turns it into the table.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
nvcc -O3 -lineinfo -arch="${ARCH:-sm_90}" -o "$out/savings" "$here/savings.cu" || exit 1
"$out/savings" || exit 1
metrics=lts__t_sectors_srcunit_tex.sum,dram__bytes.sum,gpu__time_duration.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
ncu --launch-skip 24 --launch-count 24 --metrics "$metrics" --csv "$out/savings" > "$out/savings-ncu.csv" || exit 1
wc -l "$out/savings-ncu.csv"
