#!/usr/bin/env bash
# A/B of compressed quadrature points on one GPU (src/fem/compressed_points.h): each
# case's table winner (and, from P4 on, two tensor-core shapes) forced (-schedule) and
# timed with -compress_points 0 (the rule's points) and then 1 (the compressed points) by
# the same femgpu-bench, one run right after the other; the fastest kernel of each run
# verified on 1024 cells against the CPU reference at the rule's points. No SpMV baseline.
# Usage (device-tasks.sh task sh:share/femgpu/bench/experiments/compressed_points_ab.sh:CASES):
#   compressed_points_ab.sh OUT_DIR OP:DIM:DEG...
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"; shift
mkdir -p "$out"
bench=${BENCH:-femgpu-bench}
for c in "$@"; do
  IFS=: read -r op dim deg <<<"$c"
  shapes=$(python3 "$here/table_winner.py" "${WINNERS:-$here/h200_70_cases.json}" "$op" "$dim" "$deg")
  ((deg >= 4)) && shapes="$shapes;mma nc=16 warps=4 tq=8 fp64;mma nc=8 warps=4 tq=16 fp64"
  for compress in 0 1; do
    echo "=== compress_points=$compress $op $dim $deg"
    "$bench" -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -monitor \
      -schedule "$shapes" -compress_points "$compress" -spmv_max_cell_entries 0 -csv "$out/${op}_${dim}_${deg}_c$compress.csv" 2>&1 |
      grep -E "ms \(median|verified|failed|rror"
  done
done 2>&1 | tee "$out/compressed_points_ab.txt"
