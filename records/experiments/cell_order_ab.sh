#!/usr/bin/env bash
# A/B of the order of the mesh's cells on one GPU: each case's table winner, forced and
# timed by one femgpu-bench with the lattice's row-by-row cells (-cell_order lattice) and
# then with the cells along a Z-order curve of their centroids (-cell_order morton,
# fem/cell_order.h), one run right after the other; the kernel of each run verified on 1024
# cells of its mesh against the CPU reference. No SpMV baseline. -cell_order is not in
# femgpu-bench: build it with cell_order.patch applied (h200_cell_order.txt).
# Usage (device-tasks.sh task sh:records/experiments/cell_order_ab.sh:CASES,
# commas between cases):  cell_order_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start cell_order_ab "$@"
bench=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  option_ab "$bench" "$op" "$dim" "$deg" "$(case_shapes "$op" "$dim" "$deg")" cell_order lattice morton
done 2>&1 | tee "$out/$log_name.txt"
