#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on the kernels of an identity test table (the
# tensor-core kernels with shared and with register operands, SCPWI): mass, vector mass and
# an advection-reaction form, 2D P3-P4 and 3D P2-P3 on boxes whose cell counts are no
# multiple of 8 (-faces 5,3: the last group of 8-64 cells is partly empty).
# Usage: tests/gpu/run_identity_sanitizers.sh [OUTPUT_DIR]   (femgpu-gpu-check on PATH)
set -uo pipefail
source "$(dirname "$0")/sanitize_gpu_check.sh"
sanitize_gpu_check "${1:-.}" "mass tests/gpu/vector_mass.ufl tests/gpu/advection_reaction.ufl" -min_degree 2 -max_degree_2d 4 -max_degree_3d 3 \
  -faces 5,3 -tiled 0 -shared_dofs 0 -unrolled 0 -warp_scatter 0 -register_bound 0 -interleaved 0 -own_dofs 0
