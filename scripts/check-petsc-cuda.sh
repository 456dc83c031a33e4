#!/usr/bin/env bash
# Smoke test for a CUDA-enabled PETSc install: builds a tiny C program with
# mpicc + `pkg-config petsc` that creates a VECCUDA Vec of size 10 and prints
# its type and norm.
#
# Usage:  check-petsc-cuda.sh [PETSC_PREFIX] [-- extra PETSc options for the run]
#   PETSC_PREFIX  default: $PETSC_CUDA_PREFIX or /opt/femgpu/petsc-cuda
#   RUN=0         only build/link (e.g. on a machine without a GPU)
#   OUT_DIR=dir   put the binary there (default: a fresh /tmp/femgpu-petsc-check.XXXXXX)
# Without a GPU, run with `-- -vec_type standard -device_enable lazy` to check the CPU path.
set -Eeuo pipefail
die() { echo "check-petsc-cuda: ERROR: $*" >&2; exit 1; }

PREFIX="${PETSC_CUDA_PREFIX:-/opt/femgpu/petsc-cuda}"
if [[ $# -gt 0 && "$1" != "--" ]]; then PREFIX="$1"; shift; fi
[[ "${1:-}" == "--" ]] && shift
[[ -f "$PREFIX/lib/pkgconfig/petsc.pc" ]] || die "$PREFIX/lib/pkgconfig/petsc.pc not found"
unset PETSC_DIR PETSC_ARCH
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"

WORK="${OUT_DIR:-$(mktemp -d /tmp/femgpu-petsc-check.XXXXXX)}"
mkdir -p "$WORK"
cat > "$WORK/vec_cuda.c" <<'EOF'
#include <petscvec.h>

int main(int argc, char **argv)
{
  Vec       x;
  VecType   type;
  PetscReal nrm;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, "VECCUDA smoke test\n"));
  PetscCall(VecCreate(PETSC_COMM_WORLD, &x));
  PetscCall(VecSetSizes(x, PETSC_DECIDE, 10));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-vec_type", &set));
  if (!set) PetscCall(VecSetType(x, VECCUDA)); /* default VECCUDA; -vec_type overrides it */
  PetscCall(VecSetFromOptions(x));
  PetscCall(VecGetType(x, &type));
  PetscCall(VecSet(x, 2.0));
  PetscCall(VecNorm(x, NORM_2, &nrm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Vec type: %s, size 10, norm2 of all-2 vector = %g\n", type, (double)nrm));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscFinalize());
  return 0;
}
EOF

CFLAGS_PC="$(pkg-config --cflags petsc)"
LIBS_PC="$(pkg-config --libs petsc)"
echo "+ mpicc $CFLAGS_PC vec_cuda.c $LIBS_PC -Wl,-rpath,$PREFIX/lib"
# shellcheck disable=SC2086
mpicc $CFLAGS_PC -o "$WORK/vec_cuda" "$WORK/vec_cuda.c" $LIBS_PC -Wl,-rpath,"$PREFIX/lib"
echo "built $WORK/vec_cuda"
echo "NEEDED: $(readelf -d "$WORK/vec_cuda" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"

if [[ "${RUN:-1}" == 1 ]]; then
  echo "+ $WORK/vec_cuda $*"
  export LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  "$WORK/vec_cuda" "$@"
fi
