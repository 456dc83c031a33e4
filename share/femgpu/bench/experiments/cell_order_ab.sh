#!/usr/bin/env bash
# A/B of the order of the mesh's cells on one GPU: each case's table winner, forced and
# timed by one femgpu-bench with the lattice's row-by-row cells (-cell_order lattice) and
# then with the cells along a Z-order curve of their centroids (-cell_order morton,
# fem/cell_order.h), one run right after the other; the kernel of each run verified on 1024
# cells of its mesh against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:share/femgpu/bench/experiments/cell_order_ab.sh:CASES,
# commas between cases):  cell_order_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start cell_order_ab "$@"
bench=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  shapes=$(case_shapes "$op" "$dim" "$deg")
  for order in lattice morton; do
    echo "=== $order $op $dim $deg"
    forced_run "$bench" "$op" "$dim" "$deg" "$shapes" -cell_order "$order" -csv "$out/${op}_${dim}_${deg}_$order.csv"
  done
done 2>&1 | tee "$out/$log_name.txt"
