#!/usr/bin/env bash
# Wide tensor-core groups for scalar forms, side by side with each case's winner in
# h200_70_cases_be07f9b. A scalar form's group of N_c cells is N_c columns, so at
# N_c = 8-16 each table fragment an evaluation loads from L1/L2 feeds one or two
# products and each one has its own shared load: at most half the FP64 tensor-core rate
# by the SM's 128 B/clock load path, and the whole table streams through L1/L2 again for
# every 8-16 cells. At N_c = 32-64 one fragment feeds 4-8 products and the table traffic
# per cell falls 2-8x.
# Usage (device-tasks.sh task sh:records/experiments/mma_wide_groups.sh:CASES):
#   mma_wide_groups.sh OUT_DIR OP:DIM:DEG...
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"; shift
export WINNERS="$here/h200_70_cases_be07f9b/h200_70_cases.json" OUT_NAME=mma_wide_groups
export SHAPES="mma nc=16 warps=4 tq=8 fp64;mma nc=32 warps=4 tq=8 fp64;mma nc=32 warps=4 tq=16 fp64;mma nc=32 warps=8 tq=16 fp64"
SHAPES+=";mma nc=64 warps=4 tq=8 fp64;mma nc=64 warps=8 tq=8 fp64;mma nc=64 warps=8 tq=16 fp64"
exec bash "$here/run_mma_forced.sh" "$out" "$@" -- -spmv_max_cell_entries 0
