#!/usr/bin/env bash
# libCEED's PETSc examples as the measured peer of run_ex13.sh: the same Gmsh file of a 13^3
# Kuhn box refined by PETSc, 3D P2 (-dm_refine 2) and P4 (-dm_refine 1), 1,092,727 unknowns
# each for the scalar problem (CASES may also name p1, -dm_refine 3, and p3, -dm_refine 2, as
# run_ex13.sh), one process, CEED resource /gpu/cuda/gen (kernels JiT-compiled
# by NVRTC), vectors on the GPU (the examples pick VECCUDA for a /gpu/cuda resource), CG
# rtol 1e-10 (the examples' own setting, natural norm), -log_view -log_view_gpu_time
# (GPU_TIMER=0: -log_view alone, as run_ex13.sh).
# The pack (libCEED at 64e0491 with ceed/libceed-femgpu.patch; how it was built: ceed/BUILD.txt) is at
# .carry/ceed: bin/{bps,multigrid}, lib/libceed.so, include/ (JiT sources, found through
# CEED_JIT_SOURCE_ROOT, which .carry/ceed/env.sh sets). Runs (RUNS):
#   ceed_mg   multigrid -problem bp3: CG + p-multigrid (PCMG, one level per degree down to P1,
#             Chebyshev/Jacobi smoothing, GAMG on the P1 level assembled by libCEED, here an
#             aijcusparse matrix); -warmup (patch): an untimed one-iteration solve first, so
#             the timed solve has no setup or JiT in it. Log ceed_mg_<case>.log.
#   ceed_bps  bps -problem bp3 (scalar Poisson) and bp4 (its 3-component vector form, 3x the
#             unknowns), CG + Jacobi (BPS_PC), solved to rtol (-ksp_max_it_clip lifts the
#             examples' cap of 5 or 20 iterations); bps solves once untimed for one
#             iteration first (the patch sets the preconditioner up there). Logs
#             ceed_bp3_<case>.log, ceed_bp4_<case>.log.
# The timed solve is the "Solve Stage" of -log_view; summarize.py reads these logs.
# After `source .carry/env.sh` on the GPU machine (libpetsc.so.3.26 in .carry/lib).
# Environment: BOX and REFINE (another box and refinement, as run_ex13.sh's), CASES (default "p2 p4"), RUNS (default "ceed_mg ceed_bps"), BPS_PROBLEMS
#   (default "bp3 bp4"), BPS_PC (default jacobi; none is the examples' own choice for BP3/4),
#   CEED_RESOURCE (default /gpu/cuda/gen; a /cpu/ one leaves the coarse matrix on the host,
#   for a check without a GPU), EXTRA (more options for every run) and TAG (appended to the
#   runs' names), RUN_LIMIT (seconds a run may take, default 240).
# Usage: run_ceed.sh OUTPUT_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=records/solvers/box_run.sh
source "$here/../box_run.sh" "$1"  # out, repo, MPI as root, $out/box.msh
ceed="$repo/.carry/ceed"
[ -x "$ceed/bin/bps" ] || { echo "no libCEED pack at $ceed (bin/bps, bin/multigrid, lib, include, env.sh)" >&2; exit 1; }
# shellcheck source=/dev/null
source "$ceed/env.sh"  # CEED_JIT_SOURCE_ROOT, LD_LIBRARY_PATH, PATH
resource="${CEED_RESOURCE:-/gpu/cuda/gen}"
mesh="$out/box.msh"
if [ -n "${BOX:-}" ]; then  # another Kuhn box (3D): BOX cells a side, as run_ex13.sh's
  mesh="$out/box3d_$BOX.msh"
  [ -e "$mesh" ] || python3 "$repo/tests/petsc/make_gmsh_box.py" 3 "$BOX" "$mesh"
fi
common="-ceed $resource -mesh $mesh -simplex -ksp_converged_reason -log_view ${EXTRA:-}"
[ "${GPU_TIMER:-1}" = 0 ] || common="$common -log_view_gpu_time"
coarse=""
[[ "$resource" == /gpu/* ]] && coarse="-dm_mat_type aijcusparse"

run() {  # name program options...
  local name="$1${TAG:-}" program="$2" t0=$SECONDS
  shift 2
  # shellcheck disable=SC2086,SC2068
  timeout "${RUN_LIMIT:-240}" "$ceed/bin/$program" $common $@ >"$out/$name.log" 2>&1
  local rc=$? log="$out/$name.log"
  echo "$name: rc=$rc $((SECONDS - t0)) s: $({ grep -m1 -E '^ {4}Global [Nn]odes' "$log"
    grep -E 'Total KSP Iterations|L2 Error|CG Solve Time' "$log"; } | tr -s ' ' | tr '\n' ';')"
}

declare -A degree_refine=([p1]="1 3" [p2]="2 2" [p3]="3 2" [p4]="4 1")
for case in ${CASES:-p2 p4}; do
  read -r k r <<<"${degree_refine[$case]}"
  r=${REFINE:-$r}
  problem="-degree $k -dm_refine $r"
  for runs in ${RUNS:-ceed_mg ceed_bps}; do
    # shellcheck disable=SC2086
    case "$runs" in
      ceed_mg) run "ceed_mg_$case" multigrid $problem -problem bp3 -warmup $coarse ;;
      ceed_bps)
        for bp in ${BPS_PROBLEMS:-bp3 bp4}; do
          run "ceed_${bp}_$case" bps $problem -problem "$bp" -pc_type "${BPS_PC:-jacobi}" -ksp_max_it_clip 100000,100000
        done ;;
    esac
  done
done
