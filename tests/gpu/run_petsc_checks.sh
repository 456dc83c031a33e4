#!/usr/bin/env bash
# PETSc-level checks on the GPU: the CI comparisons of tests/petsc/CMakeLists.txt run with
# the CUDA backend, with host Vecs and with CUDA Vecs (-dm_vec_type cuda, the device-resident
# path), on 1 and 2 ranks:
#   residual_vs_petsc  residual and right-hand-side kernels against PETSc's PetscDS residual
#                      (cell terms, Dirichlet constraints, Neumann/nonlinear boundary fluxes)
#   robin_vs_aij       exterior facet terms (alpha u v ds(i)) against PETSc's boundary Jacobian:
#                      MatMult, MatGetDiagonal, MatConvert
#   convert_vs_aij     the device cell-matrix assembly (MatConvert) against PETSc's AIJ Jacobian
#   stokes_vs_aij      the multi-field (Taylor-Hood) Mat, its blocks and diagonal against
#                      PETSc's AIJ from the PetscDS; ex5 (PCFIELDSPLIT Schur) with fem_gpu
#                      and with aij: the same iterations (tests/examples/compare_iterations.py)
#   femgpu-apply       exact boundary integrals (u = x0, v = x1 over ds: 1 on the unit square,
#                      3/2 on the unit cube)
# Each line of the summary: the check, its exit code and its last output line; a closing
# line counts the failures. Run from the repository root after `source .carry/env.sh`
# (scripts/pack-for-device.sh), binaries of a CUDA build on PATH.
# Usage: [ONLY=REGEX] tests/gpu/run_petsc_checks.sh OUTPUT_DIR   (ONLY: run the checks whose
# names match, e.g. ONLY='robin|boundary')
set -uo pipefail
out="${1:-petsc_checks}"
mkdir -p "$out"
data=tests/petsc/data
forms=share/femgpu/forms
bin="$(dirname "$(command -v femgpu-bench)")"
export PATH="$bin/tests/petsc:$bin/examples:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi2="mpiexec -n 2 --oversubscribe"
box2="-dm_plex_dim 2 -dm_plex_box_faces 3,3"
box3="-dm_plex_dim 3 -dm_plex_box_faces 2,2,2"
box44="-dm_plex_dim 2 -dm_plex_box_faces 4,4"
failures=0

selected() { [[ "$1" =~ ${ONLY:-.} ]]; }

check() {  # name command...: passes when the command exits 0
  local name="$1"
  shift
  selected "$name" || return 0
  timeout 120 "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || failures=$((failures + 1))
  echo "$name: rc=$rc | $(grep -v '^\s*$' "$out/$name.txt" | tail -1)"
}

value() {  # name expected command...: femgpu-apply's a(u,v) equals the exact value
  local name="$1" expected="$2"
  shift 2
  selected "$name" || return 0
  timeout 120 "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  local got
  got=$(sed -n 's/.*a(u,v) *= *\([-+0-9.eE]*\).*/\1/p' "$out/$name.txt" | head -1)
  if [ $rc -eq 0 ] && python3 -c "import sys; from fractions import Fraction as F; g=float(sys.argv[1]); e=float(F(sys.argv[2])); sys.exit(0 if abs(g-e) <= 1e-12*max(1,abs(e)) else 1)" "${got:-nan}" "$expected"; then
    echo "$name: ok | a(u,v) = $got (exact $expected)"
  else
    failures=$((failures + 1))
    echo "$name: FAILED rc=$rc | a(u,v) = ${got:-none} (exact $expected)"
  fi
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
for vec in standard cuda; do
  # A 2 s tuning budget per operator: the meshes are small, and the cache of the first
  # pass serves the second.
  B="-mat_fem_gpu_backend cuda -mat_fem_gpu_tune_budget 2 -dm_vec_type $vec"
  for form in linear_problem rhs_coefficient rhs_constant neumann_problem; do
    check residual_${form}_2d_${vec} test_residual_vs_petsc -form $form -forms_dir $data $box2 -degrees 1,2,3,4 $B
    check residual_${form}_3d_${vec} test_residual_vs_petsc -form $form -forms_dir $data $box3 -degrees 1,2,3 $B
  done
  check residual_elasticity_load_3d_${vec} test_residual_vs_petsc -form elasticity_load -forms_dir $data $box3 -degrees 1,2 $B
  check residual_hyperelasticity_2d_${vec} test_residual_vs_petsc -form hyperelasticity -forms_dir $forms $box2 -degrees 1,2,3 $B
  check residual_nonlinear_diffusion_3d_${vec} test_residual_vs_petsc -form nonlinear_diffusion -forms_dir $forms/extra $box3 -degrees 1,2,3 $B
  check mpi2_residual_neumann_2d_${vec} $mpi2 test_residual_vs_petsc -form neumann_problem -forms_dir $data $box44 -degrees 1,2 -petscpartitioner_type simple $B
  check robin_2d_${vec} test_robin_vs_aij $box2 -degrees 1,2,3 $B
  check robin_3d_${vec} test_robin_vs_aij $box3 -degrees 1,2 $B
  check mpi2_robin_3d_${vec} $mpi2 test_robin_vs_aij $box3 -degrees 2 -values 1,3,5 -petscpartitioner_type simple $B
  check robin_pmg_solve_2d_${vec} test_robin_vs_aij $box44 -degrees 2,3 -solve -solve_ksp_type cg -solve_pc_type fem_gpu_pmg $B
  for form in laplace elasticity hyperelasticity; do
    check convert_${form}_2d_${vec} test_convert_vs_aij -form $form -forms_dir $forms $box2 -degrees 1,2,3,4 $B
  done
  check convert_elasticity_3d_${vec} test_convert_vs_aij -form elasticity -forms_dir $forms $box3 -degrees 1,2,3 $B
  check stokes_2d_${vec} test_stokes_vs_aij $box2 $B
  check stokes_3d_${vec} test_stokes_vs_aij $box3 $B
  check mpi2_stokes_2d_${vec} $mpi2 test_stokes_vs_aij $box44 -petscpartitioner_type simple $B
  check mpi2_stokes_3d_${vec} $mpi2 test_stokes_vs_aij $box3 -petscpartitioner_type simple $B
  check stokes_ex5_2d_${vec} python3 tests/examples/compare_iterations.py -- ex5 -dm_plex_box_faces 6,6 -ex5_forms_dir examples/forms $B
  check stokes_ex5_3d_${vec} python3 tests/examples/compare_iterations.py -- ex5 -dm_plex_dim 3 -dm_plex_box_faces 2,2,2 -ex5_forms_dir examples/forms $B
  check mpi2_convert_hyperelasticity_2d_${vec} $mpi2 test_convert_vs_aij -form hyperelasticity -forms_dir $forms $box2 -degrees 1,2,3,4 -petscpartitioner_type simple $B
done
B="-mat_fem_gpu_backend cuda -mat_fem_gpu_tune_budget 2"
# The assembled operator (-mat_fem_gpu_strategy assembled) in a Mat: a(u,v) of Laplace,
# exact where u and v are in the space: u = v = x0 gives 1 at P1, u = v = x0 x1 gives 2/3 at
# P2, on the unit square and cube, on 1 and 2 ranks, with -mat_fem_gpu_view showing its matrix.
A="-mat_fem_gpu_backend cuda -mat_fem_gpu_strategy assembled -mat_fem_gpu_view"
for k in 1 2; do
  u=$([ $k = 1 ] && echo 'x[0]' || echo 'x[0]*x[1]') && want=$([ $k = 1 ] && echo 1 || echo 2/3)
  value assembled_laplace_2d_p$k $want femgpu-apply -form_file $forms/laplace.ufl $box44 -degree $k -u_expr "$u" -v_expr "$u" $A
  value assembled_laplace_3d_p$k $want femgpu-apply -form_file $forms/laplace.ufl $box3 -degree $k -u_expr "$u" -v_expr "$u" $A
  value mpi2_assembled_laplace_3d_p$k $want $mpi2 femgpu-apply -form_file $forms/laplace.ufl $box3 -degree $k -u_expr "$u" -v_expr "$u" -petscpartitioner_type simple $A
done
for k in 1 2 3; do
  value boundary_mass_2d_p$k 1 femgpu-apply -form_file $data/boundary_mass.ufl $box2 -degree $k -u_expr 'x[0]' -v_expr 'x[1]' $B
  value boundary_mass_3d_p$k 3/2 femgpu-apply -form_file $data/boundary_mass.ufl $box3 -degree $k -u_expr 'x[0]' -v_expr 'x[1]' $B
done
value boundary_flux_3d 1 femgpu-apply -form_file $data/boundary_flux_3d.ufl $box3 -degree 2 -u_expr 'x[0]**2' -v_expr 'x[1]' $B
value robin_3d 17/3 femgpu-apply -form_file $data/robin.ufl $box3 -degree 2 -u_expr 'x[0]' -v_expr 'x[0]' $B
value mpi2_robin_3d 17/3 $mpi2 femgpu-apply -form_file $data/robin.ufl $box3 -degree 2 -u_expr 'x[0]' -v_expr 'x[0]' -petscpartitioner_type simple $B
echo "petsc checks on the GPU: $failures failed"
