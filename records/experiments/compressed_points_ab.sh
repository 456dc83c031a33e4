#!/usr/bin/env bash
# A/B of compressed quadrature points on one GPU (src/fem/compressed_points.h): each
# case's table winner (and, from P4 on, two tensor-core shapes) forced (-schedule) and
# timed with -compress_points 0 (the rule's points) and then 1 (the compressed points) by
# the same femgpu-bench, one run right after the other; the fastest kernel of each run
# verified on 1024 cells against the CPU reference at the rule's points. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/compressed_points_ab.sh:CASES):
#   compressed_points_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start compressed_points_ab "$@"
bench=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  more="" && ((deg >= 4)) && more="mma nc=16 warps=4 tq=8 fp64;mma nc=8 warps=4 tq=16 fp64"
  shapes=$(case_shapes "$op" "$dim" "$deg" "$more")
  option_ab "$bench" "$op" "$dim" "$deg" "$shapes" compress_points 0 1
done 2>&1 | tee "$out/$log_name.txt"
