#!/usr/bin/env bash
# Builds warplint with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DWARPLINT_SANITIZE=ON, in build-asan/) and runs the whole test suite
# under it: the unit tests and every lit test. Not part of .ci/run: the
# build alone takes long on a small machine (docs/reliability.md).
#
#   bench/sanitize.sh            configure, build, test
#   JOBS=4 bench/sanitize.sh     build and test with 4 jobs (default 1 build, 2 lit)
# CXX picks the compiler (default: the system c++, as the normal build).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build-asan}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$PWD")}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    ${CXX:+-DCMAKE_CXX_COMPILER=$CXX} -DWARPLINT_SANITIZE=ON >/dev/null
fi
start=$(date +%s)
cmake --build "$BUILD" -j "${JOBS:-1}"
echo "sanitize.sh: build took $(( $(date +%s) - start )) s"

# A sanitizer report fails the test that triggered it: UBSan aborts
# (-fno-sanitize-recover), ASan exits non-zero. LLVM's own allocations that
# outlive main (its option registry, the contained crashes' abandoned
# parses) are not leaks of warplint's: LeakSanitizer stays off.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
start=$(date +%s)
"$BUILD/bin/warplint-unittests" --gtest_brief=1
/usr/lib/llvm-22/bin/lit -q -j "${LIT_JOBS:-${JOBS:-2}}" "$BUILD/test"
echo "sanitize.sh: the suite passed under ASan+UBSan in $(( $(date +%s) - start )) s"
