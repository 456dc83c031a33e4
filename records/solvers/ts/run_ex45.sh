#!/usr/bin/env bash
# PETSc's ts/tutorials/ex45 (the heat equation), built unchanged against the CUDA PETSc,
# on the Gmsh file of a 13^3 Kuhn box refined twice by PETSc: 3D P2, 1,092,727 unknowns;
# backward Euler (dt 0.01), CG rtol 1e-10, vectors on the GPU, -log_view -log_view_gpu_time.
# Configurations:
#   pmg_whole     IFunction from the form file (w_t), IJacobian derived by femgpu,
#                 fem_gpu_pmg
#   jacobi_whole  the same with Jacobi
#   jacobi        IJacobian as fem_gpu from the form file with `shift`, PetscDS
#                 IFunction on the CPU, Jacobi
#   gamg          aijcusparse (DMPlex assembly) + GAMG, PetscDS IFunction
# Each configuration runs BASE_STEPS steps with -ts_monitor_error (log
# ex45_3d_p2_<config>_check_<n>steps.log: the L2 error after the same steps in every
# configuration); the fem_gpu ones (*_whole) then run STEPS steps without the monitor
# (ex45_3d_p2_<config>_<n>steps.log; ex45's error monitor integrates on the host at every
# step). A step's time is TSStep's over the steps. The first fem_gpu run of the call fills
# the tuning and kernel caches (its log is *_cold_check_*).
# Environment: STEPS (100), BASE_STEPS (2: the CPU residual takes seconds an evaluation),
#   CONFIGS (default "pmg_whole jacobi_whole jacobi gamg"), RUN_LIMIT (240 s a run),
#   REFINE (2: -dm_refine; another value adds _r<REFINE> to the log names), EXTRA (options
#   added to every run), AFTER_RUN (a command run after each run, e.g. to pack the logs),
#   LIB (the femgpu library -dll_append loads; default .carry/lib/libfemgpu.so) and TAG
#   (appended to the log names), for an A/B of two builds in one call.
# Usage: run_ex45.sh OUTPUT_DIR    (on the GPU machine, after `source .carry/env.sh`)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=records/solvers/box_run.sh
source "$here/../box_run.sh" "$1"  # out, repo, MPI as root, caches, $out/box.msh
refine=${REFINE:-2}
tag=""; [ "$refine" != 2 ] && tag="_r$refine"
tag="$tag${TAG:-}"
common="-dll_append ${LIB:-$repo/.carry/lib/libfemgpu.so} -dm_plex_filename $out/box.msh -dm_plex_boundary_label marker -dm_refine $refine
 -temp_petscspace_degree 2 -sol_type quadratic_trig -ts_type beuler -ts_dt 0.01 -dm_vec_type cuda
 -ksp_type cg -ksp_rtol 1e-10 -ksp_converged_reason -log_view -log_view_gpu_time"
femgpu="-dm_mat_type fem_gpu -mat_fem_gpu_backend cuda"

run() {  # name steps options...
  local name="$1${tag}_$2steps" steps="$2" t0=$SECONDS
  shift 2
  # shellcheck disable=SC2086,SC2068
  timeout "${RUN_LIMIT:-240}" "$repo/.carry/bin/ex45" $common -ts_max_steps "$steps" $@ ${EXTRA:-} >"$out/$name.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'L_2 Error' "$out/$name.log" | tail -1 | tr -s ' \t' ' ')"
  [ -n "${AFTER_RUN:-}" ] && eval "$AFTER_RUN"
  return 0
}

steps=${STEPS:-100} base=${BASE_STEPS:-2}
for config in ${CONFIGS:-pmg_whole jacobi_whole jacobi gamg}; do
  case "$config" in
    pmg_whole) opts="$femgpu -dm_fem_gpu_form_file $repo/tests/petsc/data/heat_time_derivative.ufl -pc_type fem_gpu_pmg" ;;
    jacobi_whole) opts="$femgpu -dm_fem_gpu_form_file $repo/tests/petsc/data/heat_time_derivative.ufl -pc_type jacobi" ;;
    jacobi) opts="$femgpu -mat_fem_gpu_form_file $repo/tests/petsc/data/heat_shift.ufl -pc_type jacobi" ;;
    gamg) opts="-dm_mat_type aijcusparse -pc_type gamg" ;;
  esac
  check="ex45_3d_p2_${config}_check"
  [ "$config" != gamg ] && [ ! -e "$out/.warm" ] && check="ex45_3d_p2_${config}_cold_check" && touch "$out/.warm"
  run "$check" "$base" $opts -ts_monitor_error -ts_view
  case "$config" in *_whole) run "ex45_3d_p2_${config}" "$steps" $opts ;; esac
done
