#!/usr/bin/env bash
# The p-multigrid runs of records/solvers/pmg/ on a GPU machine (after
# `source .carry/env.sh`): one problem (operator, dimension, degree) per set, each with
# fem_gpu + fem_gpu_pmg, fem_gpu + Jacobi and aijcusparse + GAMG side by side in one
# process tree, vectors on the GPU, CG to a relative residual of 1e-10, -log_view.
#   - fem_gpu_pmg on the fine mesh (>= 1M DOFs) runs twice: the first run fills the
#     tuning cache (its log is kept as *_cold.log), the second is the timed one;
#   - fem_gpu_pmg on two coarser meshes (each halving h), for the growth of the
#     iteration counts: tuned with a 2 s budget in a cache of their own (the counts do
#     not depend on the kernels, and the fine runs' tuning stays that of a user);
#   - GAMG on PETSc's DMPlex assembly (where it fits the call: 3D elasticity takes
#     ~1 ms per P2 cell on the host) and on femgpu's device assembly (MatConvert of the
#     fem_gpu operator, `-exN_device_assembly`), after the fem_gpu runs (warm cache).
# Usage: run_pmg.sh OUTPUT_DIR SET
#   SET: poisson_{2d,3d}_p{2,3,4} | elasticity_{2d,3d}_p{2,3,4} | ex3
set -uo pipefail
out="$1"
set_name="$2"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin="$(dirname "$(command -v femgpu-bench)")"
export PATH="$bin/examples:$PATH"
common="-dm_vec_type cuda -mat_fem_gpu_backend cuda -log_view -log_view_gpu_time -ksp_rtol 1e-10"
pmg="-dm_mat_type fem_gpu -pc_type fem_gpu_pmg -ksp_converged_reason"
jacobi="-dm_mat_type fem_gpu -pc_type jacobi"
gamg="-dm_mat_type aijcusparse -pc_type gamg"
# In 3D elasticity cuSPARSE's SpGEMM in GAMG's Galerkin product stops with
# CUSPARSE_STATUS_INSUFFICIENT_RESOURCES (P2) or crashes (P4) at 1.2M DOFs (def472c):
# GAMG forms its coarse operators on the host there.
host_products="-matptap_backend_cpu -matmatmult_backend_cpu -mattransposematmult_backend_cpu"

run() {  # name example options...   (environment: limit, cache)
  local name="$1" example="$2"
  shift 2
  local t0=$SECONDS
  XDG_CACHE_HOME="$out/${cache:-cache}" timeout "${limit:-280}" "$example" $common "$@" >"$out/${name}.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'KSP iterations|Newton iterations|linear iterations|^Time:|^Stages:|L2 error' "$out/${name}.log" | tr '\n' ';')"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
echo "commit: ${FEMGPU_COMMIT:-unknown}, $(date -u +%Y-%m-%d)" | tee "$out/commit.txt"

faces() {  # dim n
  if [ "$1" = 3 ]; then echo "$2,$2,$2"; else echo "$2,$2"; fi
}

# problem NAME EXAMPLE DIM DEGREE "COARSE_SIZES" FINE DMPLEX_LIMIT DEVICE_LIMIT [options...]
# (a limit of 0 leaves that GAMG run out)
problem() {
  local name="$1" example="$2" dim="$3" k="$4" sizes="$5" fine="$6" dmplex_limit="$7" device_limit="$8"
  shift 8
  local n p
  for n in $sizes; do
    cache=cache_refine run "${name}_n${n}_pmg" "$example" -dm_plex_dim "$dim" -dm_plex_box_faces "$(faces "$dim" "$n")" -degree "$k" "$@" $pmg -mat_fem_gpu_tune_budget 2
  done
  p="-dm_plex_dim $dim -dm_plex_box_faces $(faces "$dim" "$fine") -degree $k $*"
  run "${name}_n${fine}_pmg_cold" "$example" $p $pmg
  run "${name}_n${fine}_pmg" "$example" $p $pmg
  limit=200 run "${name}_n${fine}_jacobi" "$example" $p $jacobi
  local extra=""
  [ "$example" = ex2 ] && [ "$dim" = 3 ] && extra="$host_products"
  [ "$device_limit" != 0 ] && limit=$device_limit run "${name}_n${fine}_gamg_device" "$example" $p $gamg -${example}_device_assembly $extra
  [ "$dmplex_limit" != 0 ] && limit=$dmplex_limit run "${name}_n${fine}_gamg" "$example" $p $gamg
  return 0
}

e="-lambda 2 -mu 0.5"
case "$set_name" in
  poisson_2d_p2) problem ex1_2d_p2 ex1 2 2 "250 500" 1000 150 100 ;;
  poisson_2d_p3) problem ex1_2d_p3 ex1 2 3 "167 333" 667 150 100 ;;
  poisson_2d_p4) problem ex1_2d_p4 ex1 2 4 "125 250" 500 150 100 ;;
  poisson_3d_p2) problem ex1_3d_p2 ex1 3 2 "13 26" 52 200 100 ;;
  poisson_3d_p3) problem ex1_3d_p3 ex1 3 3 "9 18" 35 250 100 ;;
  poisson_3d_p4) problem ex1_3d_p4 ex1 3 4 "7 13" 26 250 100 ;;
  elasticity_2d_p2) problem ex2_2d_p2 ex2 2 2 "90 180" 360 120 100 $e ;;
  elasticity_2d_p3) problem ex2_2d_p3 ex2 2 3 "60 120" 240 120 100 $e ;;
  elasticity_2d_p4) problem ex2_2d_p4 ex2 2 4 "45 90" 180 120 100 $e ;;
  # 3D: PETSc's DMPlex assembly did not finish in 240 s at P2 (8aa7a4d); GAMG runs on
  # femgpu's device assembly only; at P4 it crashed after 190 s (def472c), left out.
  elasticity_3d_p2) problem ex2_3d_p2 ex2 3 2 "9 18" 36 0 150 $e ;;
  elasticity_3d_p3) problem ex2_3d_p3 ex2 3 3 "6 12" 24 0 150 $e ;;
  elasticity_3d_p4) problem ex2_3d_p4 ex2 3 4 "5 9" 18 0 0 $e ;;
  ex3)  # the hyperelastic Newton solve (24,090 CG + Jacobi iterations on this case)
    p="-dm_plex_dim 2 -dm_plex_box_faces 200,100 -degree 2 -snes_rtol 1e-8 -ksp_rtol 1e-6"
    # the whole problem from one form file: the residual on femgpu's kernel, ex3's constants
    whole="-dm_fem_gpu_form_file share/femgpu/forms/hyperelasticity.ufl -mat_fem_gpu_constant_lmbda 1 -mat_fem_gpu_constant_mu 1"
    run ex3_2d_p2_pmg_cold ex3 $p -pc_type fem_gpu_pmg $whole  # fills the cache: Jacobian levels and residual
    run ex3_2d_p2_pmg ex3 $p -pc_type fem_gpu_pmg
    run ex3_2d_p2_pmg_form_file ex3 $p -pc_type fem_gpu_pmg $whole
    limit=200 run ex3_2d_p2_jacobi ex3 $p -pc_type jacobi $whole
    limit=200 run ex3_2d_p2_gamg ex3 $p -dm_mat_type aijcusparse -pc_type gamg
    ;;
  *) echo "usage: $0 OUTPUT_DIR poisson_{2d,3d}_p{2,3,4}|elasticity_{2d,3d}_p{2,3,4}|ex3" >&2; exit 2 ;;
esac
