#!/usr/bin/env bash
# Tensor-core shapes for kernels of an identity test table (mass) and a few scalar
# non-identity cases near 0.35 of the physical limit, forced and timed on one GPU by one
# femgpu-bench (the fastest of each case verified on 1024 cells). The question: does a
# group of more cells (each table fragment loaded once for more column tiles) relieve the
# L1 that the identity kernels' ncu profile shows at 80-90% (h200_test_dofs_prefetch.txt)?
# Usage (device-tasks.sh task sh:records/experiments/mma_identity_shapes.sh):
#   mma_identity_shapes.sh OUT_DIR
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start mma_identity_shapes "$@"
bench=${BENCH:-femgpu-bench}
shapes()  # NC_LIST TQ_LIST [WARPS]: every (nc, tq) as femgpu-bench -schedule text
{
  local s="" nc tq
  for nc in $1; do for tq in $2; do s+="mma nc=$nc warps=${3:-4} tq=$tq fp64;"; done; done
  echo "${s%;}"
}
{
  for c in "mass 2 4 16" "mass 2 5 24" "mass 2 6 32" "mass 2 7 16 40" "mass 2 8 16 32" "mass 3 4 16 40" "mass 3 5 16 32" "mass 3 6 16 32"; do
    read -r op dim deg tqs <<<"$c"
    echo "=== $op $dim $deg"
    forced_run "$bench" "$op" "$dim" "$deg" "$(case_shapes "$op" "$dim" "$deg" "$(shapes "16 24 32" "$tqs");$(shapes "32" "${tqs%% *}" 8)")" \
      -csv "$out/${op}_${dim}_${deg}.csv"
  done
  for c in "helmholtz 2 8" "laplace 2 7" "laplace 2 8" "helmholtz 2 7"; do
    read -r op dim deg <<<"$c"
    echo "=== $op $dim $deg"
    forced_run "$bench" "$op" "$dim" "$deg" "$(case_shapes "$op" "$dim" "$deg" "$(shapes "16 32" "16 32");$(shapes "8" "32")")" \
      -csv "$out/${op}_${dim}_${deg}.csv"
  done
} 2>&1 | tee "$out/$log_name.txt"
