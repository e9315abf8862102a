#!/usr/bin/env bash
# On a machine with a GPU (nvcc, ncu, compute-sanitizer): measure every
# prediction of predictions.cu. Writes ${OUT:-.}/predictions-ncu.csv (Nsight
# Compute, one row per kernel and metric) and ${OUT:-.}/predictions-synccheck.txt
# (synccheck on the barrier kernels, run alone, killed after a time limit).
# compare_predictions.py turns them into the recorded table.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -lineinfo -arch="$arch" -o "$out/predictions" "$here/predictions.cu" || exit 1
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
metrics+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
metrics+=,launch__registers_per_thread,launch__grid_size,smsp__sass_branch_targets_threads_divergent.sum
metrics+=,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum
metrics+=,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum
metrics+=,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
metrics+=,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
metrics+=,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
metrics+=,launch__block_size
ncu --metrics "$metrics" --csv "$out/predictions" > "$out/predictions-ncu.csv" || exit 1
timeout -s KILL 120 setsid compute-sanitizer --tool synccheck "$out/predictions" barriers \
  > "$out/predictions-synccheck.txt" 2>&1
echo "synccheck rc=$?"
grep -c "Barrier error" "$out/predictions-synccheck.txt"
