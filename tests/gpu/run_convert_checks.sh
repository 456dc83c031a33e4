#!/usr/bin/env bash
# MatConvert of a fem_gpu Mat on the GPU (run on a machine with an NVIDIA GPU, after
# `source .carry/env.sh` from scripts/pack-for-device.sh):
#   1. checks: the CUDA cell-matrix kernel's matrices, inserted into aijcusparse on the
#      device (MatSetValuesCOO on a device pointer), equal PETSc's own aijcusparse assembly
#      of the same Jacobian entry by entry to 1e-12 (test_convert_vs_aij, which also checks
#      the layout, nonzeros, symmetry flag, MAT_REUSE_MATRIX after the data changed and
#      MAT_INPLACE_MATRIX): Laplace 2D P1-P4 and 3D P1-P3, elasticity 3D P1-P3,
#      hyperelasticity 2D P1-P4 and 3D P1-P2, 1 and 2 ranks (one rank: the sums written
#      into seqaijcusparse's CSR on the device); the device COO entry sum alone
#      (femgpu_unit_tests "[entry_sum]") and the unique COO pattern (test_coo_pattern); the
#      one-rank global <-> local copies on CUDA Vecs (test_dm_scatter -dm_vec_type cuda,
#      and the kernel alone, "[index_copy]");
#   2. timings at about 4M DOFs (2D, P2 on a 1000x1000 box and P1 on 2000x2000, the
#      p-multigrid's coarse level) and elasticity 3D P2 at 1.2M DOFs: PETSc's DMPlex assembly into aijcusparse against
#      MatConvert (initial: the unique COO pattern on the host + values summed on the
#      device; reuse: values only), with
#      -log_view (FEMGPUAssembly) and femgpu's PetscInfo line (pattern and value seconds,
#      "values on the device").
# Each run's output goes to OUTPUT_DIR/<name>.txt; the summary lines are printed.
# Exit code 1 when a check fails.
# Usage: tests/gpu/run_convert_checks.sh [OUTPUT_DIR [checks|timings|all]]
#   (default all; the timings alone take a few minutes, the whole script more than ten)
set -uo pipefail
out="${1:-.}"
part="${2:-all}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="$out/cache"
bin="$(dirname "$(command -v femgpu-bench)")"
convert="$bin/tests/petsc/test_convert_vs_aij"
gpu="-convert_type aijcusparse -mat_fem_gpu_backend cuda -dm_vec_type cuda -mat_fem_gpu_strategy scpwi -lmbda 0.7"
box2="-dm_plex_dim 2 -dm_plex_box_faces 3,3"
box3="-dm_plex_dim 3 -dm_plex_box_faces 2,2,2"
status=0

run() {  # name command...
  local name="$1"
  shift
  "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc"
  grep -E "max\|B - J\||seconds:|FAIL|ERROR|fem_gpu: MatConvert" "$out/$name.txt" | sed 's/^/  /'
  [ $rc -eq 0 ] || status=1
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
if [ "$part" != timings ]; then
run laplace_2d_p1_p4 "$convert" -form laplace $box2 -degrees 1,2,3,4 $gpu
run laplace_3d_p1_p3 "$convert" -form laplace $box3 -degrees 1,2,3 $gpu
run elasticity_3d_p1_p3 "$convert" -form elasticity $box3 -degrees 1,2,3 $gpu
run hyperelasticity_2d_p1_p4 "$convert" -form hyperelasticity $box2 -degrees 1,2,3,4 $gpu
run hyperelasticity_3d_p1_p2 "$convert" -form hyperelasticity $box3 -degrees 1,2 $gpu
run mpi2_hyperelasticity_2d_p1_p4 mpiexec -n 2 "$convert" -form hyperelasticity $box2 -degrees 1,2,3,4 $gpu -petscpartitioner_type simple
run mpi2_elasticity_3d_p1_p3 mpiexec -n 2 "$convert" -form elasticity $box3 -degrees 1,2,3 $gpu -petscpartitioner_type simple
# The device sum of the cell entries into the unique COO entries, alone (bit for bit
# against the host loop), and the unique pattern against the plain one with this PETSc.
run entry_sum_unit "$bin/tests/femgpu_unit_tests" "[entry_sum]"
# One rank: the CSR of seqaijcusparse written on the device (-info names the preallocation).
run csr_laplace_3d_p2 "$convert" -form laplace $box3 -degrees 2 $gpu -info :mat
# The one-rank global <-> local copies on CUDA Vecs (the device index kernel) against
# PETSc's DMGlobalToLocal / DMLocalToGlobal, and the kernel alone; 2 ranks: PETSc's calls.
scatter="$bin/tests/petsc/test_dm_scatter"
run index_copy_unit "$bin/tests/femgpu_unit_tests" "[index_copy]"
run dm_scatter_cuda_2d "$scatter" $box2 -degrees 1,2,3,4 -components 0 -dm_vec_type cuda
run dm_scatter_cuda_3d "$scatter" $box3 -degrees 1,2,3 -components 1 -dm_vec_type cuda
run mpi2_dm_scatter_cuda_3d mpiexec -n 2 "$scatter" $box3 -degrees 1,2 -components 0 -dm_vec_type cuda -petscpartitioner_type simple
run mpi2_coo_pattern_2d mpiexec -n 2 "$bin/tests/petsc/test_coo_pattern" -dm_plex_dim 2 -dm_plex_box_faces 90,90 -degrees 1,2 -components 0
fi
[ "$part" = checks ] && exit $status
run time_laplace_2d_p2_4m "$convert" -form laplace -dm_plex_dim 2 -dm_plex_box_faces 1000,1000 -degrees 2 $gpu -log_view -info :mat
run time_laplace_2d_p1_4m "$convert" -form laplace -dm_plex_dim 2 -dm_plex_box_faces 2000,2000 -degrees 1 $gpu -log_view -info :mat
run time_elasticity_3d_p2_1m "$convert" -form elasticity -dm_plex_dim 3 -dm_plex_box_faces 36,36,36 -degrees 2 $gpu -log_view -info :mat
exit $status
