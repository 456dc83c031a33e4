#!/usr/bin/env bash
# Is the in-solve MatMult gap (issue 55: FEMGPUApply inside ex13's KSP against
# femgpu-bench's lattice) the DOF and cell numbering? ex13 3D P2 (-dm_refine 2 of the
# 13^3 box, 1,092,727 unknowns), residual from the form file, CG + Jacobi, with PETSc's
# own reorderings and without: `base`; `section` (-dm_reorder_section, Cuthill-McKee of
# the section's points); `rcm` (-dm_plex_reorder rcm of the file's mesh before it is
# refined); `both`. Then Nsight Compute's DRAM bytes of one action kernel inside the
# solve for `base` and `section`, and femgpu-bench's Laplace 3D P2 on its lattice of the
# same size (51^3 cubes), all in one call.
# Usage: run_locality.sh OUTPUT_DIR   (on the GPU machine, after `source .carry/env.sh`)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=records/solvers/box_run.sh
source "$here/../box_run.sh" "$1"  # out, repo, MPI as root, caches, $out/box.msh
opts="-dll_append $repo/.carry/lib/libfemgpu.so -dm_plex_filename $out/box.msh -dm_plex_boundary_label marker
 -dm_refine 2 -potential_petscspace_degree 2 -dm_vec_type cuda -ksp_type cg -ksp_rtol 1e-10 -ksp_converged_reason
 -dm_mat_type fem_gpu -mat_fem_gpu_backend cuda -dm_fem_gpu_form_file $here/ex13_poisson_3d.ufl -pc_type jacobi"
declare -A variant=([base]="" [section]="-dm_reorder_section -dm_reorder_section_type cmk"
                    [rcm]="-dm_plex_reorder rcm" [both]="-dm_plex_reorder rcm -dm_reorder_section -dm_reorder_section_type cmk")
run() {  # name command...
  local name="$1" t0=$SECONDS
  shift
  timeout "${RUN_LIMIT:-200}" "$@" >"$out/$name.log" 2>&1
  echo "$name: rc=$? $((SECONDS - t0)) s: $(grep -E 'Linear solve converged|^FEMGPUApply|^KSPSolve' "$out/$name.log" | tr -s ' ' | cut -d' ' -f1-4 | tr '\n' ';')"
}
# shellcheck disable=SC2086
run ex13_3d_p2_base_cold "$repo/.carry/bin/ex13" $opts -log_view -log_view_gpu_time
for v in base section rcm both; do
  # shellcheck disable=SC2086
  run "ex13_3d_p2_$v" "$repo/.carry/bin/ex13" $opts ${variant[$v]} -log_view -log_view_gpu_time -snes_view
done
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum
for v in base section; do
  # shellcheck disable=SC2086
  run "ncu_ex13_3d_p2_$v" ncu -k femgpu_action --launch-skip 40 --launch-count 3 --metrics $metrics --csv \
    "$repo/.carry/bin/ex13" $opts ${variant[$v]}
done
run bench_laplace_3d_p2 "$repo/.carry/bin/femgpu-bench" -ops laplace -dims 3 -n3 51 -min_degree 2 -max_degree_3d 2 \
  -csv "$out/bench_p2.csv" -commit "$(cat "$repo/.carry/COMMIT")"
