#!/usr/bin/env bash
# Side by side on the GPU: each case's recorded winner (WINNERS, default h200_70_cases.json) and the
# tensor-core (mma) shapes below, timed in one femgpu-bench process with forced
# schedules (-schedule "A;B;..."; -monitor prints every one); the fastest is verified
# against the CPU reference on 1024 cells of the paper's mesh. Shapes whose T^Q exceeds
# Q rounded up to 8 are refused by validate() and print as failed.
# Usage: run_mma_forced.sh OUT_DIR OP:DIM:DEG... [-- extra femgpu-bench options]
# Environment: SHAPES (';'-separated schedules, default the ten below), WINNERS (the JSON
# table whose winners run beside them, default h200_70_cases.json, the one-commit table).
# (femgpu-bench on PATH: `source .carry/env.sh` after scripts/pack-for-device.sh)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$1"; shift
cases=(); extra=()
while [[ $# -gt 0 ]]; do
  if [[ "$1" == "--" ]]; then shift; extra=("$@"); break; fi
  cases+=("$1"); shift
done
mkdir -p "$out"
shapes="mma nc=8 warps=4 tq=8 fp64;mma nc=16 warps=4 tq=8 fp64;mma nc=8 warps=4 tq=16 fp64;mma nc=16 warps=4 tq=16 fp64"
shapes+=";mma nc=32 warps=8 tq=16 fp64;mma nc=8 warps=4 tq=32 fp64;mma nc=16 warps=4 tq=32 fp64;mma nc=16 warps=8 tq=32 fp64"
shapes+=";mma nc=8 warps=4 tq=64 fp64;mma nc=16 warps=8 tq=64 fp64"
shapes=${SHAPES:-$shapes}
winners=${WINNERS:-$here/h200_70_cases.json}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  winner=$(python3 "$here/table_winner.py" "$winners" "$op" "$dim" "$deg")
  echo "=== $op $dim $deg (recorded winner: $winner)"
  start=$(date +%s)
  femgpu-bench -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" -monitor \
    -schedule "$winner;$shapes" "${extra[@]}" 2>&1 | grep -v "^\s*$"
  echo "rc=$? ($(( $(date +%s) - start )) s)"
done 2>&1 | tee "$out/${OUT_NAME:-mma_forced}.txt"
