# Sourced by the run scripts of records/solvers/*/ (ex13, ex45 on the Gmsh box): their
# output folder OUT (the script's first argument), the repository root `repo`, MPI allowed
# as root, femgpu's caches under OUT unless XDG_CACHE_HOME is set, and OUT/box.msh, the
# 13^3 Kuhn box of tests/petsc/make_gmsh_box.py (made once per folder).
# Usage, in a run script: source "$(dirname "$0")/../box_run.sh" "$1"
out="$1"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$out/cache}"
[ -e "$out/box.msh" ] || python3 "$repo/tests/petsc/make_gmsh_box.py" 3 13 "$out/box.msh"
