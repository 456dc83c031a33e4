#!/usr/bin/env bash
# A/B of staging an SCPWI group's map rows in shared memory (maps=shared, build_scpwi.cpp's
# stage_maps) on one GPU: each case's table winner and two more one-lane SCPWI shapes, each
# without and with maps=shared, forced and timed by one femgpu-bench process (the pairs
# side by side in one run); the fastest of each case verified on 1024 cells against the
# CPU reference. No SpMV baseline. maps=shared is not a schedule word in the tree: build
# femgpu-bench with staged_maps.patch applied (h200_staged_maps.txt).
# Usage (device-tasks.sh task sh:records/experiments/staged_maps_ab.sh:CASES, commas between cases):
#   staged_maps_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start staged_maps_ab "$@"
bench=${BENCH:-femgpu-bench}
staged()  # the schedule text with maps=shared in its place (before a register bound, else the precision)
{
  case "$1" in
    *" groups_per_sm="*) echo "${1/ groups_per_sm=/ maps=shared groups_per_sm=}" ;;
    *) echo "${1% *} maps=shared ${1##* }" ;;
  esac
}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  winner=$(case_shapes "$op" "$dim" "$deg")
  shapes=""
  for s in "$winner" "scpwi wg=32 tables=constant-merged fp64" "scpwi wg=128 tables=constant-merged fp64"; do
    case "$s" in scpwi*) [[ ";$shapes" == *";$s;"* ]] || shapes+="$s;$(staged "$s");" ;; esac
  done
  echo "=== $op $dim $deg (winner: $winner)"
  forced_run "$bench" "$op" "$dim" "$deg" "${shapes%;}" -csv "$out/${op}_${dim}_${deg}.csv"
done 2>&1 | tee "$out/$log_name.txt"
