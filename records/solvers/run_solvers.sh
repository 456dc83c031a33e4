#!/usr/bin/env bash
# The solver runs of records/solvers on a GPU machine (after
# `source .carry/env.sh`): each example with -dm_mat_type fem_gpu and aijcusparse,
# vectors on the GPU, -log_view for events and GPU copy counters.
# Usage: run_solvers.sh one-gpu|two-gpus OUTPUT_DIR [PREFIX]
#   one-gpu : ex1-ex4 at sizes of millions of DOFs, fem_gpu and aijcusparse
#   two-gpus: ex1 and ex2 (fem_gpu; ex1 also aijcusparse) on 1 and 2 ranks, same size
set -uo pipefail
mode="$1"
out="$2"
prefix="${3:-h200}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The examples sit next to the tools in a device pack (bin/examples) or a build tree.
bin="$(dirname "$(command -v femgpu-bench)")"
export PATH="$bin/examples:$PATH"
common="-dm_vec_type cuda -mat_fem_gpu_backend cuda -use_gpu_aware_mpi 0 -log_view -log_view_gpu_time -memory_view"
ex1="-dm_plex_dim 2 -dm_plex_box_faces 1000,1000 -degree 2 -ksp_rtol 1e-8"
ex2="-dm_plex_dim 3 -dm_plex_box_faces 24,24,24 -degree 2 -ksp_rtol 1e-8"
ex3="-dm_plex_dim 2 -dm_plex_box_faces 200,100 -degree 2 -snes_rtol 1e-8 -ksp_rtol 1e-6"
ex4="-dm_plex_dim 2 -dm_plex_box_faces 1000,1000 -degree 2 -ksp_rtol 1e-8"

run() {  # name ranks example options...
  local name="$1" ranks="$2" example="$3"
  shift 3
  local t0=$SECONDS
  timeout 300 mpiexec -n "$ranks" --bind-to none "$example" $common "$@" >"$out/${prefix}_${name}.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'KSP iterations|Newton iterations|^Time:|GPU memory' "$out/${prefix}_${name}.log" | tr '\n' ';')"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/${prefix}_device.txt"
case "$mode" in
  one-gpu)
    run ex1_fem_gpu 1 ex1 $ex1 -dm_mat_type fem_gpu
    run ex2_fem_gpu 1 ex2 $ex2 -dm_mat_type fem_gpu
    run ex3_fem_gpu 1 ex3 $ex3 -dm_mat_type fem_gpu
    run ex3_aijcusparse 1 ex3 $ex3 -dm_mat_type aijcusparse
    run ex4_fem_gpu 1 ex4 $ex4 -dm_mat_type fem_gpu
    run ex4_aijcusparse 1 ex4 $ex4 -dm_mat_type aijcusparse
    ;;
  two-gpus)
    for n in 1 2; do
      run ex1_fem_gpu_np$n $n ex1 $ex1 -dm_mat_type fem_gpu
      run ex1_aijcusparse_np$n $n ex1 $ex1 -dm_mat_type aijcusparse
      run ex2_fem_gpu_np$n $n ex2 $ex2 -dm_mat_type fem_gpu
    done
    ;;
  *) echo "usage: $0 one-gpu|two-gpus OUTPUT_DIR [PREFIX]" >&2; exit 2 ;;
esac
