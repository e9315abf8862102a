#!/usr/bin/env bash
# On a machine with a GPU: build subwarp_branch.cu, count each kernel's
# conditional branches in the SASS (cuobjdump) and read the branch counters
# (ncu). Writes ${OUT:-.}/subwarp-sass.txt and subwarp-ncu.csv.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
arch=${ARCH:-sm_90}
nvcc -O3 -arch="$arch" -o "$out/subwarp_branch" "$here/subwarp_branch.cu" || exit 1
nvcc -O3 -arch="$arch" -ptx -o "$out/subwarp_branch.ptx" "$here/subwarp_branch.cu"
# Per function: PTX conditional branches, SASS conditional branches (not
# the final self-loop), BSSY (reconvergence points), predicated non-branch
# instructions, all instructions.
cuobjdump -sass "$out/subwarp_branch" | awk '
  /Function :/ { f = $3 }
  /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// && f != "" {
    n[f]++
    if ($0 ~ /@!?P[0-9T]+ +BRA/) b[f]++
    else if ($0 ~ /BSSY/) s[f]++
    else if ($0 ~ /@!?P[0-9]/) p[f]++
  }
  END { for (k in n) printf "%-28s sass_cond_bra=%d bssy=%d predicated=%d insts=%d\n", k, b[k], s[k], p[k], n[k] }' | sort > "$out/subwarp-sass.txt"
awk '/\.entry/ { f = $3 } /@%p[0-9]+ bra/ { c[f]++ } /selp/ { s[f]++ }
  END { for (k in c) printf "ptx %-28s cond_bra=%d\n", k, c[k]; for (k in s) printf "ptx %-28s selp=%d\n", k, s[k] }' \
  "$out/subwarp_branch.ptx" | sort >> "$out/subwarp-sass.txt"
cat "$out/subwarp-sass.txt"
metrics=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,gpu__time_duration.sum
ncu --metrics "$metrics" --csv "$out/subwarp_branch" > "$out/subwarp-ncu.csv"
python3 - "$out/subwarp-ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; k = head.index("Kernel Name"); m = head.index("Metric Name"); v = head.index("Metric Value")
seen = {}
for r in rows[1:]:
    seen.setdefault(r[k].split("(")[0], {})[r[m]] = r[v]
for name, ms in seen.items():
    print(name, " ".join(f"{a.split('__')[1]}={b}" for a, b in sorted(ms.items())))
PY
