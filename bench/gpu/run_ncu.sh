#!/usr/bin/env bash
# On a machine with a GPU: build access_patterns.cu and collect, per kernel,
# global load/store sectors and requests and shared-memory bank conflicts.
# Writes ncu's CSV to ${OUT:-.}/access_patterns.csv.
set -euo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -arch="$arch" -o "$out/access_patterns" "$here/access_patterns.cu"
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum
ncu --metrics "$metrics" --csv "$out/access_patterns" > "$out/access_patterns.csv"
python3 "$here/summarise_ncu.py" "$out/access_patterns.csv"
