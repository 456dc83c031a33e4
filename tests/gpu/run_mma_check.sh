#!/usr/bin/env bash
# The tensor-core (mma) kernels against the CPU reference on the GPU: femgpu-gpu-check with
# its three mma shapes per case (two also with quad=steps) beside SCPWI, the five operators at 2D P1-P4 and 3D P1-P3,
# on boxes whose cell counts are no multiple of 8 (5x5 squares: 50 triangles; 3x3x3
# cubes: 162 tetrahedra), so the last group of cells is partly empty; then a vector mass
# (tests/gpu/vector_mass.ufl: test side the identity, 2 and 3 components) the same way.
# Usage: run_mma_check.sh OUT_DIR   (femgpu-gpu-check on PATH: source .carry/env.sh)
set -u
out="$1"
mkdir -p "$out"
femgpu-gpu-check -mma -faces 5,3 -max_degree_2d 4 -max_degree_3d 3 -tiled 0 -shared_dofs 0 -unrolled 0 -warp_scatter 0 -interleaved 0 \
  -register_bound 0 2>&1 | tee "$out/gpu_check_mma.txt"
femgpu-gpu-check -mma -ops tests/gpu/vector_mass.ufl -faces 5,3 -max_degree_2d 4 -max_degree_3d 3 -tiled 0 -shared_dofs 0 -unrolled 0 \
  -warp_scatter 0 -interleaved 0 -register_bound 0 2>&1 | tee "$out/gpu_check_mma_vector_mass.txt"
