#!/usr/bin/env python3
"""memory-uncoalesced-access's estimate of what a fix saves, against the GPU.

Lints bench/gpu/savings.cu (warplint --arch=sm_90), sums each orig_*
kernel's saving_pct over its findings, and puts it beside what Nsight
Compute measured for the kernel as written and as fixed (fix_*): the share
of L1 sectors requested (the estimate's unit), of L2 sectors from L1, and
of time the fix saves. An estimate agrees when it is within a factor of 2
of the share of L1 sectors, of L2 sectors or of time the fix saves, or
under 5% where the L2 sectors or the time saved are.

  compare_savings.py --warplint build/bin/warplint --ncu savings-ncu.csv
"""
import argparse, collections, csv, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))


def measured(path):
    m = collections.defaultdict(dict)
    for r in csv.DictReader(l for l in open(path) if l.startswith('"')):
        m[r["Kernel Name"].split("(")[0]][r["Metric Name"]] = float(
            r["Metric Value"].replace(",", ""))
    return m


def predicted(warplint, source, check="memory-uncoalesced-access"):
    """Each kernel's saving_pct summed over Check's findings, and their
    severities, from warplint --arch=sm_90 on Source."""
    r = subprocess.run([warplint, "--arch=sm_90", "--format=json",
                        "--checks=-*," + check, source, "--"],
                       capture_output=True, text=True)
    doc = json.loads(r.stdout)
    lines = open(source).read().split("\n")
    kernel_at = {}
    current = None
    for n, l in enumerate(lines, 1):
        if l.startswith("__global__ void "):
            current = l.split()[2].split("(")[0]
        kernel_at[n] = current
    out = collections.defaultdict(lambda: [0.0, []])
    for f in doc["findings"]:
        k = kernel_at.get(f["line"])
        out[k][0] += f["metrics"].get("saving_pct", 0)
        out[k][1].append(f["severity"])
    return out


def pairs(measured_kernels):
    """(name, as written, as fixed) for each orig_<name> and fix_<name>."""
    for k, o in measured_kernels.items():
        if k.startswith("orig_"):
            yield k[5:], o, measured_kernels["fix_" + k[5:]]


def agrees(est, saved, small=None):
    """Whether an estimate of est% agrees with what the fix saved: within a
    factor of 2 of one of the saved percentages, or under 5% where one of
    small (default: saved) is under 5% too."""
    within = lambda v: est > 0 and v > 0 and 0.5 <= est / v <= 2
    return ((est < 5 and any(v < 5 for v in (small or saved)))
            or any(within(v) for v in saved))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", required=True)
    ap.add_argument("--ncu", default=os.path.join(here, "savings-ncu-h100-sm90.csv"))
    a = ap.parse_args()
    m = measured(a.ncu)
    p = predicted(a.warplint, os.path.join(here, "savings.cu"))
    l1 = ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
    print("kernel,severity,estimate_pct,l1_sectors_saved_pct,"
          "l2_sectors_saved_pct,time_saved_pct,agree")
    agree = total = 0
    for name, o, x in pairs(m):
        save = lambda f: 100 * (1 - f(x) / f(o))
        s1 = save(lambda d: sum(d[n] for n in l1))
        s2 = save(lambda d: d["lts__t_sectors_srcunit_tex.sum"])
        st = save(lambda d: d["gpu__time_duration.sum"])
        est, sev = p.get("orig_" + name, [0.0, []])
        # The estimate is in sectors requested; where siblings or a
        # lane's own next round find them in L1 it says what reaches L2
        # (0 for a filled group), and time says what the L1 work costs.
        ok = agrees(est, (s1, s2, st), small=(s2, st))
        agree += ok
        total += 1
        print(f"{name},{'/'.join(sorted(set(sev))) or 'none'},{est:.1f},"
              f"{s1:.1f},{s2:.1f},{st:.1f},{'yes' if ok else 'no'}")
    print(f"# {agree} of {total} estimates within a factor of 2 of what "
          f"the fix saves on the GPU")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
