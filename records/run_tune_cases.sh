#!/usr/bin/env bash
# Tunes cases of the paper's suite with femgpu-bench as landed (-monitor: every timed
# candidate is printed), one case per process so that one case's failure or time limit
# leaves the others' rows, under one deadline for the whole call (the device tool cuts a
# command at 600 s): a case starts only with at least 60 s left and is cut where its own
# limit or the deadline comes first (rc=124, no row).
# Usage: run_tune_cases.sh OUT_FILE DEADLINE_S CASE... [-- options for every case]
#   CASE = OP:DIM:DEG:LIMIT_S[:OPT,VAL,OPT,VAL...]  (the options for that case alone,
#   e.g. hyperelasticity:3:6:330:-min_runs,3,-warmups,1,-min_seconds,0)
# (femgpu-bench on PATH: `source .carry/env.sh` after scripts/pack-for-device.sh)
set -uo pipefail
out="$1"; deadline="$2"; shift 2
cases=(); extra=()
while [[ $# -gt 0 ]]; do
  if [[ "$1" == "--" ]]; then shift; extra=("$@"); break; fi
  cases+=("$1"); shift
done
mkdir -p "$(dirname "$out")"
start_all=$(date +%s)
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg limit opts <<<"$c"
  left=$(( deadline - ($(date +%s) - start_all) - 5 ))
  if (( left < 60 )); then echo "=== $op $dim $deg: not started ($left s left of the call's deadline)"; continue; fi
  (( limit > left )) && limit=$left
  case_opts=()
  [[ -n "${opts:-}" ]] && IFS=, read -r -a case_opts <<<"$opts"
  echo "=== -ops $op -dims $dim -min_degree $deg -max_degree_2d $deg -max_degree_3d $deg -monitor ${case_opts[*]} ${extra[*]} (limit $limit s)"
  t0=$(date +%s)
  timeout "$limit" femgpu-bench -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -monitor \
    "${case_opts[@]}" "${extra[@]}" 2>&1 | grep -v "^\s*$"
  echo "rc=${PIPESTATUS[0]} ($(( $(date +%s) - t0 )) s)"
done 2>&1 | tee -a "$out"
