#!/usr/bin/env bash
# A/B of scatter=staged (schedule.h's Scatter::Staged) on one GPU: each case's table
# winner, its staged twin where the winner is an SCPWI kernel of one work-item a cell
# (own=atomic, the scatter staged), and staged SCPWI kernels at 32, 64, 128 and 256
# work-items a group (the winner's tables, or constant-merged where it is no SCPWI
# kernel), forced and timed side by side by one femgpu-bench process; its fastest
# verified on 1024 cells against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/staged_scatter_ab.sh:ARGS):
#   staged_scatter_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start staged_scatter_ab "$@"
bench=${BENCH:-femgpu-bench}
# The winner's staged twin and the staged shapes, canonical words (schedule_words.cpp's order).
staged_shapes()
{
  python3 - "$1" <<'PY'
import sys
w = sys.argv[1].split()
shapes = []
tables = next((x for x in w if x.startswith("tables=")), None)
if w[0] == "scpwi" and not any(x.startswith(("lanes=", "dofs=")) for x in w):
    keep = [x for x in w[:-1] if not x.startswith(("scatter=", "own=", "groups_per_sm="))]
    bound = [x for x in w if x.startswith("groups_per_sm=")]
    shapes.append(" ".join(keep + ["scatter=staged"] + bound + [w[-1]]))
elif w[0] != "scpwi":
    tables = "tables=constant-merged"
for wg in (32, 64, 128, 256):
    s = " ".join(["scpwi", f"wg={wg}"] + ([tables] if tables else []) + ["scatter=staged", "fp64"])
    if s not in shapes:
        shapes.append(s)
print(";".join(shapes))
PY
}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  winner=$(case_shapes "$op" "$dim" "$deg")
  echo "=== $op $dim $deg"
  forced_run "$bench" "$op" "$dim" "$deg" "$winner;$(staged_shapes "$winner")" -csv "$out/${op}_${dim}_${deg}.csv"
done 2>&1 | tee "$out/$log_name.txt"
