#!/usr/bin/env bash
# PETSc's snes/tutorials/ex13 (Poisson), built unchanged against the CUDA PETSc, on a
# Gmsh file of a 13^3 Kuhn box refined by PETSc: 3D P2 (-dm_refine 2) and P4
# (-dm_refine 1), 1,092,727 unknowns each (CASES may also name p1, -dm_refine 3, 1,092,727
# unknowns on 6.7M cells, and p3, -dm_refine 2, 3,723,875 unknowns); with DIM=2 a 125^2 Kuhn square, 2D P2
# (-dm_refine 2) and P4 (-dm_refine 1), 1,002,001 unknowns each (logs ex13_2d_*); CG,
# rtol 1e-10, vectors on the GPU. Every run
# with -log_view -log_view_gpu_time (event times with GPU work are n/a without it), unless
# GPU_TIMER=0: then -log_view alone (KSPSolve's and SNESSolve's wall times without a host
# wait after every timed kernel; PETSc takes -log_view_gpu_time by its presence, so
# "-log_view_gpu_time 0" would not turn it off).
# Configurations (the `config` column of summary.csv):
#   pmg_whole     fem_gpu Jacobian + fem_gpu_pmg, residual from the form file
#   jacobi_whole  fem_gpu Jacobian + Jacobi, residual from the form file
#   pmg           fem_gpu Jacobian + fem_gpu_pmg, PetscDS residual (CPU)
#   jacobi        fem_gpu Jacobian + Jacobi, PetscDS residual (CPU)
#   gamg          aijcusparse (DMPlex assembly) + GAMG, PetscDS residual
# A configuration's first run on a fresh tuning cache is named *_cold (tuning included).
# PROGRAM=ex17 runs PETSc's ex17 instead (elasticity, -sol_type elas_quad, unchanged; the
# same meshes and refinements, so 3x the unknowns: 3.3M at 3D P2 and P4; residual from
# ex17_elasticity_<dim>d.ufl; logs ex17_*; ex17 prints no L2 error).
# After `source .carry/env.sh` on the GPU machine; the program is .carry/bin/ex13 (ex17).
# Environment: DIM (3 or 2, default 3), BOX (another Kuhn box of BOX cells a side, made
#   as OUTPUT_DIR/box<DIM>d_<BOX>.msh) and REFINE (-dm_refine for every case) for other
#   sizes (run_record.sh), CASES (default "p2 p4"), CONFIGS (default "pmg_whole jacobi_whole"),
#   EXTRA (more options for every fem_gpu run, e.g. for an A/B of one option) and TAG
#   (appended to the runs' names), RUN_LIMIT (seconds a run may take, default 240), LIB
#   (the femgpu library -dll_append loads, default .carry/lib/libfemgpu.so: an A/B of two
#   builds in one call; a second build must be named libfemgpu.so in its own folder).
# Usage: run_ex13.sh OUTPUT_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=records/solvers/box_run.sh
source "$here/../box_run.sh" "$1"  # out, repo, MPI as root, caches, $out/box.msh
lib="${LIB:-$repo/.carry/lib/libfemgpu.so}"
dim=${DIM:-3}
mesh="$out/box.msh"
if [ "$dim" = 2 ]; then
  mesh="$out/box2d.msh"
  [ -e "$mesh" ] || python3 "$repo/tests/petsc/make_gmsh_box.py" 2 125 "$mesh"
fi
if [ -n "${BOX:-}" ]; then  # another Kuhn box: BOX cells a side
  mesh="$out/box${dim}d_$BOX.msh"
  [ -e "$mesh" ] || python3 "$repo/tests/petsc/make_gmsh_box.py" "$dim" "$BOX" "$mesh"
fi
common="-dll_append $lib -dm_plex_filename $mesh -dm_plex_boundary_label marker -dm_vec_type cuda
 -ksp_type cg -ksp_rtol 1e-10 -snes_converged_reason -ksp_converged_reason -error_view -log_view -snes_view"
[ "${GPU_TIMER:-1}" = 0 ] || common="$common -log_view_gpu_time"
program=${PROGRAM:-ex13}
case "$program" in  # the program's field option, form file and own options
  ex13) field=potential form="$here/ex13_poisson_${dim}d.ufl" own="" ;;
  ex17) field=displacement form="$here/ex17_elasticity_${dim}d.ufl" own="-sol_type elas_quad" ;;
  *) echo "PROGRAM is ex13 or ex17, not $program" >&2; exit 2 ;;
esac
common="$common $own"
femgpu="-dm_mat_type fem_gpu -mat_fem_gpu_backend cuda ${EXTRA:-}"
whole="-dm_fem_gpu_form_file $form"
jac="-mat_fem_gpu_form_file $form"

config_options() {  # config -> options
  case "$1" in
    pmg_whole) echo "$femgpu $whole -pc_type fem_gpu_pmg" ;;
    jacobi_whole) echo "$femgpu $whole -pc_type jacobi" ;;
    pmg) echo "$femgpu $jac -pc_type fem_gpu_pmg" ;;
    jacobi) echo "$femgpu $jac -pc_type jacobi" ;;
    gamg) echo "-dm_mat_type aijcusparse -pc_type gamg" ;;
  esac
}

run() {  # name options...
  local name="$1${TAG:-}" t0=$SECONDS
  shift
  # shellcheck disable=SC2086,SC2068
  timeout "${RUN_LIMIT:-240}" "$repo/.carry/bin/$program" $common $@ >"$out/$name.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'Linear solve converged|L2 error|^ *[0-9]+: +Main Stage' "$out/$name.log" | head -3 | tr -s ' ' | tr '\n' ';')"
}

declare -A degree_refine=([p1]="1 3" [p2]="2 2" [p3]="3 2" [p4]="4 1")
for case in ${CASES:-p2 p4}; do
  read -r k r <<<"${degree_refine[$case]}"
  r=${REFINE:-$r}
  problem="-${field}_petscspace_degree $k -dm_refine $r"
  for config in ${CONFIGS:-pmg_whole jacobi_whole}; do
    opts="$problem $(config_options "$config")"
    [ "$config" != gamg ] && [ ! -e "$out/.warm_${program}_${dim}d_$case" ] && run "${program}_${dim}d_${case}_${config}_cold" $opts && touch "$out/.warm_${program}_${dim}d_$case"
    run "${program}_${dim}d_${case}_${config}" $opts
  done
done
