#!/usr/bin/env bash
# The GPU test suite (run on a machine with an NVIDIA GPU):
#   1. femgpu-gpu-check: the five operators, 2D P1-P8 and 3D P1-P6, SCPWI and five tiled
#      schedules each, against the CPU reference action (FP64, 1e-12 relative);
#   2. compute-sanitizer memcheck and racecheck on representative schedules of both
#      strategies.
# Usage: tests/gpu/run_gpu_suite.sh [OUTPUT_DIR]   (femgpu-gpu-check on PATH, e.g. after
# `source .carry/env.sh` from scripts/pack-for-device.sh)
set -euo pipefail
out="${1:-.}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
femgpu-gpu-check 2>&1 | tee "$out/gpu_check_full.txt" | grep -E "FAILED|ERROR|passed"
compute-sanitizer --tool memcheck --error-exitcode 3 femgpu-gpu-check -ops hyperelasticity -dims 2 -min_degree 2 -max_degree_2d 2 -tiled 3 \
  2>&1 | tee "$out/memcheck.txt" | tail -2
compute-sanitizer --tool racecheck --error-exitcode 3 femgpu-gpu-check -ops elasticity -dims 3 -min_degree 2 -max_degree_3d 2 -tiled 3 \
  2>&1 | tee "$out/racecheck.txt" | tail -2
