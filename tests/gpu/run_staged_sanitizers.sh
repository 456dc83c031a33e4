#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on the SCPWI kernels with scatter=staged (their
# outputs staged in shared memory, one barrier, the group's adds entry by entry) beside
# the atomic ones: mass (identity test table), Laplace (a test table) and linear
# elasticity (vector, 2 and 3 components), 2D P1-P3 and 3D P1-P2, on boxes whose cell
# counts are no multiple of the group sizes (-faces 5,3: the last group partly empty).
# Usage: tests/gpu/run_staged_sanitizers.sh [OUTPUT_DIR]   (femgpu-gpu-check on PATH)
set -uo pipefail
source "$(dirname "$0")/sanitize_gpu_check.sh"
out="${1:-.}"
sanitize_gpu_check "$out" "mass laplace elasticity" -max_degree_2d 3 -max_degree_3d 2 \
  -faces 5,3 -tiled 0 -mma 0 -shared_dofs 0 -unrolled 0 -warp_scatter 0 -register_bound 0 -interleaved 0 -own_dofs 0
status=$?
grep -c "scatter=staged" "$out/memcheck.txt" | sed 's/^/staged kernels checked under memcheck: /'
exit $status
