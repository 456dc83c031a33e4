#!/usr/bin/env bash
# Unbounded tunings (-tune_budget 0) of single cases by a given femgpu-bench, one process a
# case, named as device-tasks.sh names its bench tasks (bench_OP_DIM_DEG_DEG_DEG_...), so
# that compare_unbounded.py reads the folder beside the others. --bench PATH COMMIT: a
# binary other than the one on PATH (a table's commit kept in the pack as
# femgpu-bench-before) and the commit it was built from, for its rows' commit column (a
# binary takes it from FEMGPU_COMMIT, which device-tasks.sh sets to the pack's).
# Usage (device-tasks.sh task sh:records/run_unbounded.sh:ARGS, commas for spaces):
#   run_unbounded.sh OUT_DIR [--bench PATH COMMIT] OP:DIM:DEG...
set -u
out="$1"
shift
mkdir -p "$out"
bench=femgpu-bench
if [ "${1:-}" = --bench ]; then bench=$2 && export FEMGPU_COMMIT=$3 && shift 3; fi
for c in "$@"; do
  IFS=: read -r op dim deg <<<"$c"
  name="bench_${op}_${dim}_${deg}_${deg}_${deg}_-tune_budget_0_-monitor_-spmv_max_cell_entries_0"
  t0=$SECONDS
  "$bench" -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -tune_budget 0 -monitor \
    -spmv_max_cell_entries 0 -csv "$out/$name.csv" -json "$out/$name.json" >"$out/$name.log" 2>&1
  echo "$op $dim $deg: rc=$? $((SECONDS - t0)) s"
done
