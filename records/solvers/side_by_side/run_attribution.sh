#!/usr/bin/env bash
# Where ex13's solve time goes (issue: the user's solve at the kernel's speed): the runs
# of run_ex13.sh (fem_gpu_pmg and Jacobi, residual from the form file, P2 and P4), then
# the same fem_gpu_pmg runs again with -mat_fem_gpu_kernel_cache none, whose difference
# is the time spent compiling kernels that a kept binary saves. One tuning cache for all.
# Usage: run_attribution.sh OUTPUT_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$1"
bash "$here/run_ex13.sh" "$out"
TAG=_no_kernel_cache EXTRA="-mat_fem_gpu_kernel_cache none" CONFIGS=pmg_whole bash "$here/run_ex13.sh" "$out"
