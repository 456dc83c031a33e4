#!/usr/bin/env bash
# The two rows beyond 5% of the unbounded tuner in the 934e566 table (mass 2D P7, P8: the
# table's winner nc=8 against the unbounded run's nc=16, measured by earlier binaries in
# another run): both shapes forced and timed side by side by one femgpu-bench process,
# three times in alternating order, on one GPU; each fastest verified on 1024 cells.
# Usage (device-tasks.sh task sh:records/experiments/unbounded_gap_ab.sh): unbounded_gap_ab.sh OUT_DIR
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start unbounded_gap_ab "$@"
bench=${BENCH:-femgpu-bench}
a="mma nc=8 warps=4 tq=16 fp64" b="mma nc=16 warps=4 tq=16 fp64"
for deg in 7 8; do
  for order in "$a;$b" "$b;$a" "$a;$b"; do
    echo "=== mass 2 $deg"
    forced_run "$bench" mass 2 "$deg" "$order"
  done
done 2>&1 | tee "$out/$log_name.txt"
