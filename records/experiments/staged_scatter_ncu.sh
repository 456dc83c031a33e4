#!/usr/bin/env bash
# Nsight Compute on two SCPWI winners with their atomic scatter and with scatter=staged:
# the L2 sectors their reductions (the atomic adds) touch and the requests that carry them
# (tests/gpu/run_ncu_profiles.sh's second pass), on its default meshes (2D 640 x 640).
# A wrapper: device-tasks.sh splits a task's arguments at spaces, and each spec here holds some.
# Usage (device-tasks.sh task sh:records/experiments/staged_scatter_ncu.sh): staged_scatter_ncu.sh OUT_DIR
set -u
bash "$(dirname "$0")/../../../../tests/gpu/run_ncu_profiles.sh" "$1" \
  "elasticity 2 2 scpwi wg=32 tables=constant scatter=warp fp64" \
  "elasticity 2 2 scpwi wg=32 tables=constant scatter=staged fp64" \
  "laplace 2 4 scpwi wg=256 tables=constant-merged fp64" \
  "laplace 2 4 scpwi wg=256 tables=constant-merged scatter=staged fp64"
python3 "$(dirname "$0")/../../../../tests/gpu/summarize_ncu.py" "$1" >"$1/summary.txt" 2>&1
cat "$1/summary.txt"
