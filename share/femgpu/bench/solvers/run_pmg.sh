#!/usr/bin/env bash
# The p-multigrid runs of share/femgpu/bench/solvers/pmg/ on a GPU machine (after
# `source .carry/env.sh`): each problem with fem_gpu + fem_gpu_pmg, fem_gpu + Jacobi and
# aijcusparse (DMPlex assembly) + GAMG, side by side in one process tree, vectors on the
# GPU, -log_view. Every fem_gpu configuration runs twice: the first run fills the tuning
# cache (its log is kept as *_cold.log), the second is the timed one (warm cache).
# Usage: run_pmg.sh OUTPUT_DIR SET   (SET: 2d | 3d | elasticity)
set -uo pipefail
out="$1"
set_name="$2"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="$out/cache"
bin="$(dirname "$(command -v femgpu-bench)")"
export PATH="$bin/examples:$PATH"
common="-dm_vec_type cuda -mat_fem_gpu_backend cuda -log_view -log_view_gpu_time -ksp_rtol 1e-10"
pmg="-dm_mat_type fem_gpu -pc_type fem_gpu_pmg -ksp_converged_reason"
jacobi="-dm_mat_type fem_gpu -pc_type jacobi"
gamg="-dm_mat_type aijcusparse -pc_type gamg"

run() {  # name example options...
  local name="$1" example="$2"
  shift 2
  local t0=$SECONDS
  timeout 280 "$example" $common "$@" >"$out/${name}.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'KSP iterations|Newton iterations|linear iterations|^Time:|L2 error' "$out/${name}.log" | tr '\n' ';')"
}
warm_then_run() {  # name example options...
  local name="$1"
  shift
  run "${name}_cold" "$@"
  run "$name" "$@"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
case "$set_name" in
  2d)
    p="-dm_plex_dim 2 -dm_plex_box_faces 1000,1000 -degree 2"
    warm_then_run ex1_2d_p2_pmg ex1 $p $pmg
    run ex1_2d_p2_gamg ex1 $p $gamg
    run ex1_2d_p2_jacobi ex1 $p $jacobi
    p="-dm_plex_dim 2 -dm_plex_box_faces 500,500 -degree 4"
    warm_then_run ex1_2d_p4_pmg ex1 $p $pmg
    run ex1_2d_p4_gamg ex1 $p $gamg
    run ex1_2d_p4_jacobi ex1 $p $jacobi
    ;;
  3d)
    p="-dm_plex_dim 3 -dm_plex_box_faces 64,64,64 -degree 2"
    warm_then_run ex1_3d_p2_pmg ex1 $p $pmg
    run ex1_3d_p2_gamg ex1 $p $gamg
    ;;
  elasticity)
    p="-dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degree 2 -lambda 2 -mu 0.5"
    warm_then_run ex2_3d_p2_pmg ex2 $p $pmg
    p="-dm_plex_dim 2 -dm_plex_box_faces 200,100 -degree 2 -snes_rtol 1e-8 -ksp_rtol 1e-6"
    warm_then_run ex3_2d_p2_pmg ex3 $p -pc_type fem_gpu_pmg
    p="-dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degree 2 -lambda 2 -mu 0.5"
    run ex2_3d_p2_gamg ex2 $p $gamg
    ;;
  *) echo "usage: $0 OUTPUT_DIR 2d|3d|elasticity" >&2; exit 2 ;;
esac
