#!/usr/bin/env bash
# The residual kernels on the GPU (after `source .carry/env.sh`): femgpu's CUDA residual
# of each form (-dm_fem_gpu_form_file) against PETSc's DMPlexSNESComputeResidualFEM from
# independent pointwise residuals (test_residual_vs_petsc, to 1e-12 relative, Dirichlet
# values on x = 0): the forms of tests/petsc's residual tests, 2D P1-P4 and 3D P1-P3, on
# 1 and 2 ranks, with SCPWI kernels (no tuning) and, for two forms, tuned ones.
# Each run's output goes to OUTPUT_DIR/<name>.txt; exit code 1 when a check fails.
# Usage: tests/gpu/run_residual_checks.sh [OUTPUT_DIR]   (from the repository root)
set -uo pipefail
out="${1:-.}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="$out/cache"
bin="$(dirname "$(command -v femgpu-bench)")"
residual="$bin/tests/petsc/test_residual_vs_petsc"
data=tests/petsc/data
extra=share/femgpu/forms/extra
cuda="-mat_fem_gpu_backend cuda -dm_vec_type cuda"
scpwi="$cuda -mat_fem_gpu_strategy scpwi"
box2="-dm_plex_dim 2 -dm_plex_box_faces 3,3"
box3="-dm_plex_dim 3 -dm_plex_box_faces 2,2,2"
status=0

run() {  # name command...
  local name="$1"
  shift
  "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc"
  grep -E "F_femgpu - F_petsc|FAIL|ERROR" "$out/$name.txt" | sed 's/^/  /'
  [ $rc -eq 0 ] || status=1
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
run hyperelasticity_2d "$residual" -form hyperelasticity $box2 -degrees 1,2,3,4 $scpwi
run hyperelasticity_3d "$residual" -form hyperelasticity $box3 -degrees 1,2,3 $scpwi
run nonlinear_diffusion_2d "$residual" -form nonlinear_diffusion -forms_dir $extra $box2 -degrees 1,2,3,4 $scpwi
run nonlinear_diffusion_3d "$residual" -form nonlinear_diffusion -forms_dir $extra $box3 -degrees 1,2,3 $scpwi
for form in linear_problem rhs_coefficient rhs_constant; do
  run ${form}_2d "$residual" -form $form -forms_dir $data $box2 -degrees 1,2,3,4 $scpwi
  run ${form}_3d "$residual" -form $form -forms_dir $data $box3 -degrees 1,2,3 $scpwi
done
run elasticity_load_2d "$residual" -form elasticity_load -forms_dir $data $box2 -degrees 1,2,3 $scpwi
run elasticity_load_3d "$residual" -form elasticity_load -forms_dir $data $box3 -degrees 1,2 $scpwi
run tuned_hyperelasticity_2d_p2 "$residual" -form hyperelasticity $box2 -degrees 2 $cuda
run tuned_linear_problem_3d_p2 "$residual" -form linear_problem -forms_dir $data $box3 -degrees 2 $cuda
run mpi2_hyperelasticity_2d mpiexec -n 2 "$residual" -form hyperelasticity -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degrees 1,2,3 $scpwi
run mpi2_linear_problem_2d mpiexec -n 2 "$residual" -form linear_problem -forms_dir $data -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degrees 1,2,3 $scpwi
exit $status
