#!/usr/bin/env bash
# Tuned CUDA kernels against exact integrals (after `source .carry/env.sh`): femgpu-apply
# with -mat_fem_gpu_backend cuda and the default strategy (tuned on the first MatMult)
# prints a(u,v) = v^T A u for polynomial u, v that the element holds, so the exact value
# is known. Each case runs: tuned with an empty cache (the Mat runs the tuner's own loaded
# winner), again with the cache warm (the winner compiled from its schedule), tuned in FP32
# (the candidates compiled and timed in FP32), and tuned with a 0.5 s budget.
# Each run's output goes to OUTPUT_DIR/<name>.txt; exit code 1 when a check fails.
# Usage: tests/gpu/run_tuned_checks.sh [OUTPUT_DIR]   (from the repository root)
set -uo pipefail
out="${1:-.}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="$out/cache"
bin="$(dirname "$(command -v femgpu-bench)")"
apply="$bin/femgpu-apply"
check="python3 tests/petsc/check_output.py"
forms=share/femgpu/forms
box2="-dm_plex_dim 2 -dm_plex_box_faces 64,64"
box3="-dm_plex_dim 3 -dm_plex_box_faces 12,12,12"
status=0

run() {  # name expected tolerance apply-options...
  local name="$1" expected="$2" tol="$3"
  shift 3
  $check --value "a(u,v)" "$expected" --tol "$tol" -- "$apply" -mat_fem_gpu_backend cuda -mat_fem_gpu_tune_monitor "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc $(grep -E '^a\(u,v\)|fem_gpu tune: tuned:|cache hit' "$out/$name.txt" | tr '\n' ' ' | cut -c1-300)"
  ((rc == 0)) || status=1
}

case_runs() {  # name expected options...
  local name="$1" expected="$2"
  shift 2
  run "${name}_tuned" "$expected" 1e-11 "$@"
  run "${name}_cached" "$expected" 1e-11 "$@"
  run "${name}_fp32_tuned" "$expected" 1e-5 "$@" -mat_fem_gpu_precision fp32
  run "${name}_budget" "$expected" 1e-11 "$@" -mat_fem_gpu_tune_budget 0.5 -mat_fem_gpu_tune_cache none
}

case_runs laplace_2d_p3 2/3 -form_file $forms/laplace.ufl $box2 -degree 3 -u_expr 'x[0]*x[1]' -v_expr 'x[0]*x[1]'
case_runs laplace_3d_p2 2/3 -form_file $forms/laplace.ufl $box3 -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]*x[1]'
case_runs mass_2d_p2 1/6 -form_file $forms/mass.ufl $box2 -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]'
case_runs elasticity_3d_p2 9.3 -form_file $forms/elasticity.ufl $box3 -components 3 -degree 2 -u_expr x -v_expr x -mat_fem_gpu_constant_lmbda 0.7
case_runs hyperelasticity_2d_p2 11/2 -form_file $forms/hyperelasticity.ufl $box2 -components 2 -degree 2 -coefficient_w_expr "as_vector([x[0], 0])" \
  -u_expr "as_vector([x[0], 0])" -v_expr "as_vector([x[0], 0])"
echo "tuned checks: $([[ $status == 0 ]] && echo all passed || echo FAILED)"
exit $status
