"""Summarises run_ncu.sh's CSV: per kernel, global sectors per request
(loads, stores) and shared-memory wavefronts per shared load instruction
(1 = conflict-free, N = N-way)."""
import csv
import sys
from collections import defaultdict

values = defaultdict(dict)
with open(sys.argv[1]) as f:
    lines = [l for l in f if l.startswith('"')]
for row in csv.DictReader(lines):
    v = row["Metric Value"].replace(",", "")
    try:
        values[row["Kernel Name"].split("(")[0]][row["Metric Name"]] = float(v)
    except ValueError:
        pass


def ratio(m, a, b):
    return m.get(a, 0) / m[b] if m.get(b) else float("nan")


print(f"{'kernel':24} {'ld sect/req':>11} {'st sect/req':>11} {'shared wavefronts/ld':>20} {'bank conflicts':>14}")
for k, m in values.items():
    print(f"{k:24} "
          f"{ratio(m, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'):11.2f} "
          f"{ratio(m, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'):11.2f} "
          f"{ratio(m, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum'):20.2f} "
          f"{m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 0):14.0f}")
