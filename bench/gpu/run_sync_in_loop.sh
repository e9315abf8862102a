#!/usr/bin/env bash
# On a machine with a GPU: builds bench/gpu/sync_in_loop.cu and times a
# loop of launches with a cudaDeviceSynchronize each iteration against the
# same loop waited once. Writes ${OUT:-.}/sync-in-loop.txt.
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-.}
nvcc -O3 -std=c++17 -arch="${ARCH:-sm_90}" -o "$out/sync_in_loop" "$here/sync_in_loop.cu" || exit 1
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$out/sync_in_loop"
} | tee "$out/sync-in-loop.txt"
