#!/usr/bin/env python3
"""arith-unsigned-index's estimate of what a fix saves, against the GPU.

Lints bench/gpu/index_savings.cu (warplint --arch=sm_90), sums each orig_*
kernel's saving_pct over its findings, and puts it beside what Nsight
Compute measured for the kernel with unsigned indices and with int ones
(fix_*): the share of instructions executed and of time the change saves.
An estimate agrees when it is within a factor of 2 of either, or under 5%
where either is.

  compare_bank_savings.py --warplint build/bin/warplint --ncu index-savings-ncu.csv
"""
import argparse, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from compare_savings import agrees, measured, pairs, predicted  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", required=True)
    ap.add_argument("--ncu", default=os.path.join(
        here, "index-savings-ncu-h100-sm90.csv"))
    a = ap.parse_args()
    m = measured(a.ncu)
    p = predicted(a.warplint, os.path.join(here, "index_savings.cu"),
                  "arith-unsigned-index")
    print("kernel,severity,estimate_pct,instructions_saved_pct,"
          "time_saved_pct,agree")
    agree = total = 0
    for name, o, x in pairs(m):
        save = lambda n: 100 * (1 - x[n] / o[n])
        sw = save("smsp__inst_executed.sum")
        st = save("gpu__time_duration.sum")
        est, sev = p.get("orig_" + name, [0.0, []])
        est = min(est, 100.0)
        ok = agrees(est, (sw, st))
        agree += ok
        total += 1
        print(f"{name},{'/'.join(sorted(set(sev))) or 'none'},{est:.1f},"
              f"{sw:.1f},{st:.1f},{'yes' if ok else 'no'}")
    print(f"# {agree} of {total} estimates within a factor of 2 of what "
          f"the fix saves on the GPU")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
