#!/usr/bin/env bash
# Runs each libFuzzer target (fuzz/) for SECONDS, from the seed corpus
# test/fuzz/<target>/, and prints its executions and coverage. Not a test:
# a crash leaves its input in bench/fuzz-out/<target>/ (turn it into a
# regression test of the default suite, then fix it).
#
#   bench/fuzz.sh SECONDS [target...]     targets: config nolint arch-table
#                                          baseline compile-database lsp
# JOBS (default 1) fuzzing processes per target (-fork); BUILD_DIR
# (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:?usage: bench/fuzz.sh SECONDS [target...]}
shift
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(config nolint arch-table baseline compile-database lsp)
BUILD=${BUILD_DIR:-build-fuzz}
CXX=${CXX:-clang++-22}

# libFuzzer's runtime is a separate Debian package from the compiler.
RT=$("$CXX" -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a
if [ ! -f "$RT" ]; then
  echo "fuzz.sh: no libFuzzer runtime ($RT): apt-get install libclang-rt-22-dev" >&2
  exit 2
fi

export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$ROOT")}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$CXX" -DWARPLINT_FUZZ=ON >/dev/null
fi
cmake --build "$BUILD" --target fuzzers -j "${BUILD_JOBS:-1}"

printf '%-18s %10s %8s %8s %8s %7s %s\n' target execs exec/s cov ft corpus crashes
status=0
for t in "${TARGETS[@]}"; do
  out=bench/fuzz-out/$t
  mkdir -p "$out/corpus" "$out/crashes"
  log=$out/fuzz.log
  # The first directory collects what libFuzzer finds; the seeds stay as
  # they are. -close_fd_mask=2: the parsers' own error logs, not libFuzzer's.
  set +e
  parallel=()
  [ "${JOBS:-1}" -le 1 ] || parallel=(-fork="$JOBS")
  "$BUILD/bin/fuzz-$t" "$out/corpus" "test/fuzz/$t" \
    -max_total_time="$SECONDS_EACH" -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/" -close_fd_mask=2 "${parallel[@]}" \
    >"$log" 2>&1
  rc=$?
  set -e
  execs=$(awk '/stat::number_of_executed_units:/ {s+=$2} END {print s+0}' "$log")
  rate=$(awk '/stat::average_exec_per_sec:/ {s+=$2} END {print s+0}' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' | tail -1)
  cov=$(awk '{print $2}' <<<"$last"); ft=$(awk '{print $4}' <<<"$last")
  corp=$(awk '{print $6}' <<<"$last")
  crashes=$(find "$out/crashes" -type f | wc -l)
  printf '%-18s %10s %8s %8s %8s %7s %s\n' "$t" "$execs" "$rate" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    echo "  $t: exit $rc, inputs in $out/crashes/ (log: $log)"
    status=1
  fi
done
exit $status
