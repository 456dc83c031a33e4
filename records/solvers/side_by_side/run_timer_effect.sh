#!/usr/bin/env bash
# What -log_view_gpu_time does to the times it reports (issue 55, item 1): PETSc's GPU
# timer ends every timed region with a host wait on a CUDA event, so a solve logged with
# it runs with a wait after every kernel. ex13 3D (P2 -dm_refine 2, P4 -dm_refine 1 of the
# 13^3 box, 1,092,727 unknowns), residual from the form file, Jacobi and fem_gpu_pmg:
# each with `-log_view` alone (SNESSolve, KSPSolve and TSStep keep their wall times
# there; other events with GPU work print n/a) and with `-log_view -log_view_gpu_time`;
# then Nsight Systems' kernel and API summaries of the runs without the GPU timer.
# Environment: CASES (p2 p4), PCS (jacobi fem_gpu_pmg), LIB (the femgpu library; default
#   .carry/lib/libfemgpu.so) and TAG (appended to the log names), RUN_LIMIT (200 s a run).
# Usage: run_timer_effect.sh OUTPUT_DIR   (on the GPU machine, after `source .carry/env.sh`)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=records/solvers/box_run.sh
source "$here/../box_run.sh" "$1"  # out, repo, MPI as root, caches, $out/box.msh
common="-dll_append ${LIB:-$repo/.carry/lib/libfemgpu.so} -dm_plex_filename $out/box.msh -dm_plex_boundary_label marker
 -dm_vec_type cuda -ksp_type cg -ksp_rtol 1e-10 -ksp_converged_reason -log_view
 -dm_mat_type fem_gpu -mat_fem_gpu_backend cuda -dm_fem_gpu_form_file $here/ex13_poisson_3d.ufl"
declare -A problem=([p2]="-potential_petscspace_degree 2 -dm_refine 2" [p4]="-potential_petscspace_degree 4 -dm_refine 1")
run() {  # name command...
  local name="$1" t0=$SECONDS
  shift
  timeout "${RUN_LIMIT:-200}" "$@" >"$out/$name.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'Linear solve converged|^KSPSolve|^SNESSolve' "$out/$name.log" | tr -s ' ' | cut -d' ' -f1-4 | tr '\n' ';')"
}
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
for case in ${CASES:-p2 p4}; do
  for pc in ${PCS:-jacobi fem_gpu_pmg}; do
    name="ex13_3d_${case}_${pc}${TAG:-}"
    # shellcheck disable=SC2086
    [ -e "$out/.warm_$case" ] || { run "${name}_cold" "$repo/.carry/bin/ex13" $common ${problem[$case]} -pc_type $pc; touch "$out/.warm_$case"; }
    # shellcheck disable=SC2086
    run "${name}_wall" "$repo/.carry/bin/ex13" $common ${problem[$case]} -pc_type $pc
    # shellcheck disable=SC2086
    run "${name}_gpu_time" "$repo/.carry/bin/ex13" $common ${problem[$case]} -pc_type $pc -log_view_gpu_time
    if [ -n "$nsys" ]; then
      # shellcheck disable=SC2086
      run "${name}_nsys" "$nsys" profile -t cuda --stats=false -o "$out/$name" -f true "$repo/.carry/bin/ex13" $common ${problem[$case]} -pc_type $pc
      "$nsys" stats -r cuda_gpu_kern_sum,cuda_api_sum -f csv -o "$out/$name" "$out/$name.nsys-rep" >/dev/null 2>&1
      rm -f "$out/$name.nsys-rep" "$out/$name.sqlite"
    fi
  done
done
