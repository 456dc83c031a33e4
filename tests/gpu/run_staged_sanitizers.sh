#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on the SCPWI kernels with scatter=staged (their
# outputs staged in shared memory, one barrier, the group's adds entry by entry) beside
# the atomic ones: mass (identity test table), Laplace (a test table) and linear
# elasticity (vector, 2 and 3 components), 2D P1-P3 and 3D P1-P2, on boxes whose cell
# counts are no multiple of the group sizes (-faces 5,3: the last group partly empty).
# Usage: tests/gpu/run_staged_sanitizers.sh [OUTPUT_DIR]   (femgpu-gpu-check on PATH)
set -uo pipefail
out="${1:-.}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
status=0
for tool in memcheck racecheck; do
  for form in mass laplace elasticity; do
    echo "=== compute-sanitizer --tool $tool femgpu-gpu-check -ops $form" | tee -a "$out/$tool.txt"
    compute-sanitizer --tool "$tool" --error-exitcode 3 femgpu-gpu-check -ops "$form" -max_degree_2d 3 -max_degree_3d 2 \
      -faces 5,3 -tiled 0 -mma 0 -shared_dofs 0 -unrolled 0 -warp_scatter 0 -register_bound 0 -interleaved 0 -own_dofs 0 >>"$out/$tool.txt" 2>&1
    rc=$?
    echo "rc=$rc" | tee -a "$out/$tool.txt"
    tail -n 3 "$out/$tool.txt"
    ((rc == 0)) || status=$rc
  done
done
grep -c "scatter=staged" "$out/memcheck.txt" | sed 's/^/staged kernels checked under memcheck: /'
exit $status
