# Sourced by the forced-schedule A/B scripts (mma_codegen_ab.sh, mma_rows_ab.sh,
# compressed_points_ab.sh, test_identity_ab.sh, test_dofs_prefetch_ab.sh,
# mma_identity_shapes.sh, staged_maps_ab.sh, scpwi_chains_ab.sh, cell_order_ab.sh,
# owned_dofs_ab.sh, owned_dofs_tuned_ab.sh, mma_registers_ab.sh), after `set -u`: their common arguments and
# their one way of timing a case's forced (or tuned) schedules.
#   forced_ab_start NAME "$@"   out=OUT_DIR (created), cases=(the rest), the log $out/NAME.txt
#   case_shapes OP DIM DEG [MORE]  the case's winner in WINNERS (default the one-commit
#                               table, h200_70_cases.json), then ";MORE" if given
#   forced_run BENCH OP DIM DEG SHAPES [OPTIONS...]   one femgpu-bench process timing
#                               SHAPES on the paper's mesh, no SpMV, its fastest verified;
#                               prints the timing and verification lines
#   before_after BEFORE AFTER OP DIM DEG SHAPES   forced_run by BEFORE then by AFTER, each
#                               side's CSV in $out/OP_DIM_DEG_{before,after}.csv
#   option_ab BENCH OP DIM DEG SHAPES OPTION VALUE...   forced_run by BENCH once with each
#                               -OPTION VALUE, one after the other, each run's CSV in
#                               $out/OP_DIM_DEG_OPTION_VALUE.csv
#   tuned_before_after BEFORE AFTER OP DIM DEG   the case tuned as a user's first apply
#                               tunes it (default budget, empty cache) by BEFORE, then by
#                               AFTER, no SpMV; the result lines in the log, each side's
#                               monitor output and CSV in $out/OP_DIM_DEG_{before,after}.*
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
forced_ab_start()
{
  log_name=$1
  out=$2
  shift 2
  cases=("$@")
  mkdir -p "$out"
}
case_shapes()
{
  local winner
  winner=$(python3 "$bench_dir/table_winner.py" "${WINNERS:-$bench_dir/h200_70_cases.json}" "$1" "$2" "$3")
  echo "$winner${4:+;$4}"
}
forced_run()
{
  local bench=$1 op=$2 dim=$3 deg=$4 shapes=$5
  shift 5
  "$bench" -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -monitor \
    -schedule "$shapes" -spmv_max_cell_entries 0 "$@" 2>&1 | grep -E "ms \(median|verified|failed|rror"
}
before_after()
{
  local before=$1 after=$2 op=$3 dim=$4 deg=$5 shapes=$6 side bench
  for side in before after; do
    echo "=== $side $op $dim $deg"
    bench=$before && [ "$side" = after ] && bench=$after
    forced_run "$bench" "$op" "$dim" "$deg" "$shapes" -csv "$out/${op}_${dim}_${deg}_$side.csv"
  done
}
option_ab()
{
  local bench=$1 op=$2 dim=$3 deg=$4 shapes=$5 option=$6 value
  shift 6
  for value in "$@"; do
    echo "=== $option=$value $op $dim $deg"
    forced_run "$bench" "$op" "$dim" "$deg" "$shapes" "-$option" "$value" -csv "$out/${op}_${dim}_${deg}_${option}_$value.csv"
  done
}
tuned_before_after()
{
  local before=$1 after=$2 op=$3 dim=$4 deg=$5 side bench
  for side in before after; do
    echo "=== tuned $side $op $dim $deg"
    bench=$before && [ "$side" = after ] && bench=$after
    "$bench" -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -monitor -spmv_max_cell_entries 0 \
      -csv "$out/${op}_${dim}_${deg}_$side.csv" >"$out/${op}_${dim}_${deg}_$side.log" 2>&1
    grep -E "^$op |own=plain|failed|rror" "$out/${op}_${dim}_${deg}_$side.log"
  done
}
