#!/usr/bin/env bash
# Whole Poisson solves from one form file on a GPU machine (after `source .carry/env.sh`):
# examples/ex1, 2D P2 (~4M DOFs) and 3D P2 (~2M DOFs), vectors on the GPU, -log_view
# stages. Side by side in one process tree, with the same PC (CG + Jacobi, and the
# p-multigrid for fem_gpu):
#   fem_gpu_form  the right-hand side from the form file's residual kernel on the GPU
#                 (-dm_fem_gpu_form_file examples/forms/poisson_sine_*.ufl), the operator
#                 fem_gpu; run twice, the first (*_cold) fills the tuning cache;
#   fem_gpu_petscds  the same operator, the right-hand side from PETSc's PetscDS residual
#                 on the CPU (DMPlexComputeResidual), for the residual's speed-up;
#   aijcusparse   PETSc's DMPlex assembly into aijcusparse, PetscDS right-hand side.
# fem_gpu_form_jacobi_eager repeats the warm fem_gpu_form run with -device_enable eager:
# PETSc then initialises CUDA in PetscInitialize, before the mesh, instead of at the first
# GPU Vec inside the residual stage; the difference is the CUDA initialisation.
# WHOLE_CASES (default "2d 3d") picks the problems.
# Usage: run_whole_solve.sh OUTPUT_DIR REPO_FORMS_DIR
set -uo pipefail
out="$1"
forms="$2"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="$out/cache"
bin="$(dirname "$(command -v femgpu-bench)")"
export PATH="$bin/examples:$PATH"
common="-dm_vec_type cuda -mat_fem_gpu_backend cuda -log_view -log_view_gpu_time -ksp_rtol 1e-10 -ksp_converged_reason"

run() {  # name options...
  local name="$1"
  shift
  local t0=$SECONDS
  timeout "${limit:-200}" ex1 $common "$@" >"$out/${name}.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E '^KSP iterations|^L2 error|^Stages:' "$out/${name}.log" | tr '\n' ';')"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
echo "commit: ${FEMGPU_COMMIT:-unknown}, $(date -u +%Y-%m-%d)" | tee "$out/commit.txt"
declare -A faces_of=([2d]=1000,1000 [3d]=63,63,63)
for case in ${WHOLE_CASES:-2d 3d}; do
  set -- $case "${faces_of[$case]}"
  dim="${1%d}" faces="$2"
  p="-dm_plex_dim $dim -dm_plex_box_faces $faces -degree 2"
  form="-dm_fem_gpu_form_file $forms/poisson_sine_$1.ufl"
  run "ex1_$1_p2_fem_gpu_form_jacobi_cold" $p $form -dm_mat_type fem_gpu -pc_type jacobi
  run "ex1_$1_p2_fem_gpu_form_jacobi" $p $form -dm_mat_type fem_gpu -pc_type jacobi
  run "ex1_$1_p2_fem_gpu_form_jacobi_eager" $p $form -dm_mat_type fem_gpu -pc_type jacobi -device_enable eager
  run "ex1_$1_p2_fem_gpu_form_pmg_cold" $p $form -dm_mat_type fem_gpu -pc_type fem_gpu_pmg
  run "ex1_$1_p2_fem_gpu_form_pmg" $p $form -dm_mat_type fem_gpu -pc_type fem_gpu_pmg
  run "ex1_$1_p2_fem_gpu_petscds_jacobi" $p -dm_mat_type fem_gpu -pc_type jacobi
  run "ex1_$1_p2_aijcusparse_jacobi" $p -dm_mat_type aijcusparse -pc_type jacobi
done
