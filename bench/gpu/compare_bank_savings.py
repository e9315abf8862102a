#!/usr/bin/env python3
"""memory-shared-bank-conflict's estimate of what a fix saves, against the GPU.

Lints bench/gpu/bank_savings.cu (warplint --arch=sm_90), sums each orig_*
kernel's saving_pct over its findings, and puts it beside what Nsight
Compute measured for the kernel as written and as fixed (fix_*): the share
of the kernel's memory work the fix saves, in the estimate's unit (shared
wavefronts, plus 2 for each L2 sector from L1), and the share of time. An
estimate agrees when it is within a factor of 2 of either, or under 5%
where either is.

  compare_bank_savings.py --warplint build/bin/warplint --ncu bank-savings-ncu.csv
"""
import argparse, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from compare_savings import agrees, measured, pairs, predicted  # noqa: E402

SECTOR_WAVEFRONTS = 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", required=True)
    ap.add_argument("--ncu", default=os.path.join(
        here, "bank-savings-ncu-h100-sm90.csv"))
    a = ap.parse_args()
    m = measured(a.ncu)
    p = predicted(a.warplint, os.path.join(here, "bank_savings.cu"),
                  "memory-shared-bank-conflict")
    wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
    print("kernel,severity,estimate_pct,work_saved_pct,time_saved_pct,"
          "bank_conflicts,agree")
    agree = total = 0
    for name, o, x in pairs(m):
        work = lambda d: d[wf] + SECTOR_WAVEFRONTS * d[
            "lts__t_sectors_srcunit_tex.sum"]
        sw = 100 * (work(o) - work(x)) / work(o)
        st = 100 * (1 - x["gpu__time_duration.sum"] /
                    o["gpu__time_duration.sum"])
        est, sev = p.get("orig_" + name, [0.0, []])
        est = min(est, 100.0)
        ok = agrees(est, (sw, st))
        agree += ok
        total += 1
        conflicts = int(o["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"])
        print(f"{name},{'/'.join(sorted(set(sev))) or 'none'},{est:.1f},"
              f"{sw:.1f},{st:.1f},{conflicts},{'yes' if ok else 'no'}")
    print(f"# {agree} of {total} estimates within a factor of 2 of what "
          f"the fix saves on the GPU")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
