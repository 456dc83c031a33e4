#!/usr/bin/env bash
# The p-multigrid runs of share/femgpu/bench/solvers/pmg/ on a GPU machine (after
# `source .carry/env.sh`): each problem with fem_gpu + fem_gpu_pmg, fem_gpu + Jacobi and
# aijcusparse (DMPlex assembly) + GAMG, side by side in one process tree, vectors on the
# GPU, -log_view. Every fem_gpu configuration runs twice: the first run fills the tuning
# cache (its log is kept as *_cold.log), the second is the timed one (warm cache).
# Each problem also runs with fem_gpu_pmg on two coarser meshes (each halving h), at P2,
# P3 and P4, for the growth of the iteration counts. The fine meshes have >= 1M DOFs.
# Usage: run_pmg.sh OUTPUT_DIR SET
#   SET: 2d | 2d_p4 | 3d | 3d_p3 | 3d_p4 | elasticity | elasticity_p3 | elasticity_p4 | ex3
#        | elasticity_device_gamg (GAMG on femgpu's device assembly: PETSc's DMPlex
#          assembly of 3D elasticity takes ~1 ms per P2 cell on the host, so the 1M-DOF 3D
#          problems' GAMG runs use it) | elasticity_3d_dmplex (the one that fits: 3D P2)
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
  timeout "${limit:-280}" "$example" $common "$@" >"$out/${name}.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'KSP iterations|Newton iterations|linear iterations|^Time:|L2 error' "$out/${name}.log" | tr '\n' ';')"
}
warm_then_run() {  # name example options...
  local name="$1"
  shift
  run "${name}_cold" "$@"
  run "$name" "$@"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
git_commit="${FEMGPU_COMMIT:-unknown}"  # the commit the binaries were built from
echo "commit: $git_commit, $(date -u +%Y-%m-%d)" | tee "$out/commit.txt"
refinements() {  # name example "n1 n2 n3" dim degree options... (pmg on each mesh)
  local name="$1" example="$2" sizes="$3" dim="$4" degree="$5"
  shift 5
  for n in $sizes; do
    local faces="$n,$n"
    [ "$dim" = 3 ] && faces="$n,$n,$n"
    run "${name}_n${n}_pmg" "$example" -dm_plex_dim "$dim" -dm_plex_box_faces "$faces" -degree "$degree" "$@" $pmg
  done
}
# Elasticity at degree K: 2D pmg on the coarser meshes SIZES2 and on FINE2 (also with
# DMPlex + GAMG, which gets the rigid-body modes from ex2), 3D pmg on SIZES3 and FINE3
# (DMPlex's 3D assembly does not fit a call: set elasticity_device_gamg).
elasticity_at() {  # K "SIZES2" FINE2 "SIZES3" FINE3
  local k="$1" e="-lambda 2 -mu 0.5" p
  refinements ex2_2d_p$k ex2 "$2" 2 "$k" $e
  p="-dm_plex_dim 2 -dm_plex_box_faces $3,$3 -degree $k $e"
  warm_then_run ex2_2d_p${k}_n${3}_pmg ex2 $p $pmg
  limit=150 run ex2_2d_p${k}_n${3}_gamg ex2 $p $gamg
  refinements ex2_3d_p$k ex2 "$4" 3 "$k" $e
  p="-dm_plex_dim 3 -dm_plex_box_faces $5,$5,$5 -degree $k $e"
  warm_then_run ex2_3d_p${k}_n${5}_pmg ex2 $p $pmg
}
case "$set_name" in
  2d)
    refinements ex1_2d_p2 ex1 "250 500" 2 2
    p="-dm_plex_dim 2 -dm_plex_box_faces 1000,1000 -degree 2"
    warm_then_run ex1_2d_p2_n1000_pmg ex1 $p $pmg
    run ex1_2d_p2_n1000_gamg ex1 $p $gamg
    run ex1_2d_p2_n1000_jacobi ex1 $p $jacobi
    ;;
  2d_p4)
    refinements ex1_2d_p4 ex1 "125 250" 2 4
    p="-dm_plex_dim 2 -dm_plex_box_faces 500,500 -degree 4"
    warm_then_run ex1_2d_p4_n500_pmg ex1 $p $pmg
    run ex1_2d_p4_n500_gamg ex1 $p $gamg
    ;;
  3d)
    refinements ex1_3d_p2 ex1 "13 26" 3 2
    p="-dm_plex_dim 3 -dm_plex_box_faces 52,52,52 -degree 2"
    warm_then_run ex1_3d_p2_n52_pmg ex1 $p $pmg
    run ex1_3d_p2_n52_jacobi ex1 $p $jacobi
    limit=150 run ex1_3d_p2_n52_gamg ex1 $p $gamg
    ;;
  elasticity)
    e="-lambda 2 -mu 0.5"
    refinements ex2_3d_p2 ex2 "9 18" 3 2 $e
    p="-dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degree 2 $e"
    warm_then_run ex2_3d_p2_n36_pmg ex2 $p $pmg
    refinements ex2_2d_p2 ex2 "90 180" 2 2 $e
    p="-dm_plex_dim 2 -dm_plex_box_faces 360,360 -degree 2 $e"
    warm_then_run ex2_2d_p2_n360_pmg ex2 $p $pmg
    limit=120 run ex2_2d_p2_n360_gamg ex2 $p $gamg
    ;;
  3d_p3)
    refinements ex1_3d_p3 ex1 "9 18" 3 3
    p="-dm_plex_dim 3 -dm_plex_box_faces 35,35,35 -degree 3"
    warm_then_run ex1_3d_p3_n35_pmg ex1 $p $pmg
    limit=300 run ex1_3d_p3_n35_gamg ex1 $p $gamg
    ;;
  3d_p4)
    refinements ex1_3d_p4 ex1 "7 13" 3 4
    p="-dm_plex_dim 3 -dm_plex_box_faces 26,26,26 -degree 4"
    warm_then_run ex1_3d_p4_n26_pmg ex1 $p $pmg
    limit=300 run ex1_3d_p4_n26_gamg ex1 $p $gamg
    ;;
  elasticity_p3) elasticity_at 3 "60 120" 240 "6 12" 24 ;;
  elasticity_p4) elasticity_at 4 "45 90" 180 "5 9" 18 ;;
  elasticity_device_gamg)  # GAMG on the operator assembled by femgpu's MatConvert (GPU; warm tuning cache)
    e="-lambda 2 -mu 0.5"
    dev="-dm_mat_type aijcusparse -ex2_device_assembly -pc_type gamg"
    warm_then_run ex2_2d_p2_n360_gamg_device ex2 -dm_plex_dim 2 -dm_plex_box_faces 360,360 -degree 2 $e $dev
    warm_then_run ex2_2d_p4_n180_gamg_device ex2 -dm_plex_dim 2 -dm_plex_box_faces 180,180 -degree 4 $e $dev
    # In 3D, cuSPARSE's SpGEMM in GAMG's Galerkin product stops with
    # CUSPARSE_STATUS_INSUFFICIENT_RESOURCES (P2) or crashes (P4) at 1.2M DOFs (def472c):
    # GAMG forms its coarse operators on the host instead.
    host_products="-matptap_backend_cpu -matmatmult_backend_cpu -mattransposematmult_backend_cpu"
    warm_then_run ex2_3d_p2_n36_gamg_device ex2 -dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degree 2 $e $dev $host_products
    warm_then_run ex2_3d_p4_n18_gamg_device ex2 -dm_plex_dim 3 -dm_plex_box_faces 18,18,18 -degree 4 $e $dev $host_products
    ;;
  elasticity_3d_dmplex)  # PETSc's DMPlex assembly of 3D P2 elasticity at 1.2M DOFs (minutes on the host)
    limit=570 run ex2_3d_p2_n36_gamg ex2 -dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degree 2 -lambda 2 -mu 0.5 $gamg
    ;;
  ex3)  # the hyperelastic Newton solve of share/femgpu/bench/solvers/one_gpu (24,090 CG+Jacobi iterations)
    p="-dm_plex_dim 2 -dm_plex_box_faces 200,100 -degree 2 -snes_rtol 1e-8 -ksp_rtol 1e-6"
    warm_then_run ex3_2d_p2_pmg ex3 $p -pc_type fem_gpu_pmg
    limit=200 run ex3_2d_p2_gamg ex3 $p -dm_mat_type aijcusparse -pc_type gamg
    ;;
  *) echo "usage: $0 OUTPUT_DIR 2d|2d_p4|3d|3d_p3|3d_p4|elasticity|elasticity_p3|elasticity_p4|elasticity_device_gamg|elasticity_3d_dmplex|ex3" >&2; exit 2 ;;
esac
