#!/usr/bin/env bash
# A/B of the tensor-core kernels of an identity test table with their operands in registers
# (operands=registers, build_mma_registers.cpp) on one GPU: each case's table winner and the
# registers form at 1, 2, 4 and 8 warps, and at 2 and 4 warps with own=plain, forced and
# timed side by side by one femgpu-bench process; its fastest verified on 1024 cells
# against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/mma_registers_ab.sh:ARGS):
#   mma_registers_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start mma_registers_ab "$@"
bench=${BENCH:-femgpu-bench}
registers=""
for w in 1 2 4 8; do registers+=";mma nc=$((8 * w)) warps=$w tq=8 operands=registers fp64"; done
for w in 2 4; do registers+=";mma nc=$((8 * w)) warps=$w tq=8 operands=registers own=plain fp64"; done
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  echo "=== $op $dim $deg"
  forced_run "$bench" "$op" "$dim" "$deg" "$(case_shapes "$op" "$dim" "$deg")$registers" -csv "$out/${op}_${dim}_${deg}.csv"
done 2>&1 | tee "$out/$log_name.txt"
