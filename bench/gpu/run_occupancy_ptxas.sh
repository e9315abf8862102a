#!/bin/sh
# On the GPU machine: the runtime's registers and blocks per SM for the
# launches of occupancy_ptxas.cu, compiled as warplint's resource-usage
# compile does (nvcc -O3 for the GPU's architecture). Prints CSV; compare
# with `warplint --checks='-*,launch-occupancy' --arch=sm_XX --format=json`
# on the same file with launch-occupancy.MinOccupancy: 101 (every launch held
# by registers or shared memory is reported, with its metrics).
set -e
cd "$(dirname "$0")"
ARCH=${ARCH:-sm_90}
OUT=${OUT:-/tmp}
nvcc --version | tail -2
nvcc -O3 -gencode arch=compute_${ARCH#sm_},code=$ARCH -o "$OUT/occupancy_ptxas" occupancy_ptxas.cu
"$OUT/occupancy_ptxas"
