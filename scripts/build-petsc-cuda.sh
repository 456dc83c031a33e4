#!/usr/bin/env bash
# Build a CUDA-enabled PETSc (sm_90) from the PyPI source tarball into a cache
# directory OUTSIDE the femgpu repository.
#
# Usage:  build-petsc-cuda.sh [PREFIX]
#   PREFIX               install prefix (default: $PETSC_CUDA_PREFIX or /opt/femgpu/petsc-cuda)
# Environment overrides:
#   PETSC_CUDA_PREFIX    same as the PREFIX argument
#   PETSC_TARBALL        path to petsc-X.Y.Z.tar.gz (default: /tmp/pd/petsc-$PETSC_VERSION.tar.gz,
#                        downloaded from PyPI when absent)
#   PETSC_VERSION        the PETSc release to download (default 3.26.1, the one measured here)
#   FEMGPU_SRC_ROOT      where the tarball is unpacked and built (default /opt/femgpu/src)
#   CUDA_HOME            CUDA toolkit (default /usr/local/cuda)
#   CUDA_ARCH            SM list for --with-cuda-arch (default 90)
#   MAKE_NP              parallel make jobs (default 2)
#   MAKE_LOAD            PETSc's make starts no job while the load average is above it;
#                        default 64 (PETSc's own, 2.0, leaves one job running, niced, for
#                        as long as any other build shares a 2-core machine)
#   FORCE=1              rebuild even if the stamp matches
#
# Idempotent: if PREFIX/lib/libpetsc.so exists and PREFIX/.femgpu-petsc-stamp
# matches (tarball version + sha256 + configure options), nothing is done.
set -Eeuo pipefail

die() { echo "build-petsc-cuda: ERROR: $*" >&2; exit 1; }
log() { echo "build-petsc-cuda: $*"; }

PREFIX="${1:-${PETSC_CUDA_PREFIX:-/opt/femgpu/petsc-cuda}}"
SRC_ROOT="${FEMGPU_SRC_ROOT:-/opt/femgpu/src}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
CUDA_ARCH="${CUDA_ARCH:-90}"
MAKE_NP="${MAKE_NP:-2}"
PETSC_ARCH_NAME="arch-femgpu-cuda"

# A PETSC_DIR/PETSC_ARCH from the environment (e.g. Debian's petsc-dev) must not leak in.
unset PETSC_DIR PETSC_ARCH

# ---------------------------------------------------------------- tarball
# fetch_sdist VERSION FILE: PETSc's source tarball from PyPI, its sha256 checked against the
# index. Only the file is fetched: `pip download --no-binary :all: petsc` would also build
# the sdist's build dependencies from source to read its metadata (minutes).
fetch_sdist() {
  python3 - "$1" "$2" <<'PY'
import hashlib, json, os, sys, urllib.request
version, dest = sys.argv[1], sys.argv[2]
name = "petsc-%s.tar.gz" % version
index = urllib.request.Request("https://pypi.org/simple/petsc/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
with urllib.request.urlopen(index, timeout=60) as r:
    files = [f for f in json.load(r)["files"] if f["filename"] == name]
if not files:
    sys.exit("PyPI has no %s (PETSC_VERSION=%s)" % (name, version))
digest = hashlib.sha256()
with urllib.request.urlopen(files[0]["url"], timeout=600) as r, open(dest + ".part", "wb") as out:
    for block in iter(lambda: r.read(1 << 20), b""):
        digest.update(block)
        out.write(block)
if digest.hexdigest() != files[0]["hashes"]["sha256"]:
    sys.exit("%s: sha256 %s, PyPI says %s" % (name, digest.hexdigest(), files[0]["hashes"]["sha256"]))
os.replace(dest + ".part", dest)
PY
}

PETSC_VERSION="${PETSC_VERSION:-3.26.1}"
TARBALL="${PETSC_TARBALL:-/tmp/pd/petsc-$PETSC_VERSION.tar.gz}"
if [[ -n "${PETSC_TARBALL:-}" && ! -f "$TARBALL" ]]; then
  die "PETSC_TARBALL=$TARBALL does not exist"
fi
if [[ ! -f "$TARBALL" ]]; then
  log "downloading petsc-$PETSC_VERSION.tar.gz from PyPI into /tmp/pd"
  mkdir -p /tmp/pd
  fetch_sdist "$PETSC_VERSION" "$TARBALL" || die "could not download petsc-$PETSC_VERSION.tar.gz from PyPI"
fi
[[ -f "$TARBALL" ]] || die "tarball not found: $TARBALL"
TARBALL="$(readlink -f "$TARBALL")"
VERSION="$(basename "$TARBALL" .tar.gz)"; VERSION="${VERSION#petsc-}"
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+ ]] || die "cannot parse the version from $TARBALL"

# ---------------------------------------------------------------- toolchain checks
command -v mpicc  >/dev/null || die "mpicc not found (install libopenmpi-dev)"
command -v mpicxx >/dev/null || die "mpicxx not found (install libopenmpi-dev)"
[[ -x "$CUDA_HOME/bin/nvcc" ]] || die "nvcc not found at $CUDA_HOME/bin/nvcc"
MULTIARCH="$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
OPENBLAS_SO=""
for d in "/usr/lib/$MULTIARCH" /usr/lib64 /usr/lib; do
  if [[ -e "$d/libopenblas.so" ]]; then OPENBLAS_SO="$d/libopenblas.so"; break; fi
done
[[ -n "$OPENBLAS_SO" ]] || die "libopenblas.so not found (apt-get install libopenblas-dev)"
# PETSc needs LAPACK from the same library: check that OpenBLAS carries it.
nm -D "$(readlink -f "$OPENBLAS_SO")" | grep ' T dgetrf_$' >/dev/null \
  || die "$OPENBLAS_SO has no LAPACK symbols (dgetrf_); use an OpenBLAS built with LAPACK"

# ---------------------------------------------------------------- configure options
CONFIGURE_OPTS=(
  --with-cc=mpicc --with-cxx=mpicxx --with-fc=0
  --with-mpi=1
  --with-cuda=1 "--with-cuda-arch=$CUDA_ARCH" "--with-cudac=$CUDA_HOME/bin/nvcc"
  --with-blaslapack-lib=-lopenblas
  --with-debugging=0 --with-shared-libraries=1 --with-x=0 --with-64-bit-indices=0
  COPTFLAGS=-O2 CXXOPTFLAGS=-O2 CUDAOPTFLAGS=-O2
)
STAMP_FILE="$PREFIX/.femgpu-petsc-stamp"
TARBALL_SHA="$(sha256sum "$TARBALL" | cut -d' ' -f1)"
STAMP_CONTENT="petsc=$VERSION sha256=$TARBALL_SHA prefix=$PREFIX opts=${CONFIGURE_OPTS[*]}"

if [[ "${FORCE:-0}" != 1 && -f "$STAMP_FILE" && -e "$PREFIX/lib/libpetsc.so" ]] \
   && [[ "$(cat "$STAMP_FILE")" == "$STAMP_CONTENT" ]]; then
  log "up to date: PETSc $VERSION (CUDA sm_$CUDA_ARCH) already installed in $PREFIX"
  log "PETSC_DIR=$PREFIX  (pkg-config: PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig)"
  exit 0
fi

# ---------------------------------------------------------------- unpack
SRC_DIR="$SRC_ROOT/petsc-$VERSION"
mkdir -p "$SRC_ROOT" || die "cannot create $SRC_ROOT"
if [[ -d "$SRC_DIR" ]]; then
  log "removing previous source/build tree $SRC_DIR"
  rm -rf "$SRC_DIR"
fi
log "unpacking $TARBALL into $SRC_ROOT"
tar -xzf "$TARBALL" -C "$SRC_ROOT"
[[ -x "$SRC_DIR/configure" ]] || die "$SRC_DIR/configure missing after unpacking"

on_err() {
  local rc=$?
  echo "build-petsc-cuda: FAILED (exit $rc) at line $1" >&2
  if [[ -f "$SRC_DIR/configure.log" ]]; then
    echo "---- last 40 lines of $SRC_DIR/configure.log ----" >&2
    tail -n 40 "$SRC_DIR/configure.log" >&2 || true
  fi
  if [[ -f "$SRC_DIR/$PETSC_ARCH_NAME/lib/petsc/conf/make.log" ]]; then
    echo "---- last 40 lines of make.log ----" >&2
    tail -n 40 "$SRC_DIR/$PETSC_ARCH_NAME/lib/petsc/conf/make.log" >&2 || true
  fi
  exit "$rc"
}
trap 'on_err $LINENO' ERR

cd "$SRC_DIR"
T0=$(date +%s)
log "configuring PETSc $VERSION: ${CONFIGURE_OPTS[*]} --prefix=$PREFIX"
python3 ./configure "PETSC_ARCH=$PETSC_ARCH_NAME" "${CONFIGURE_OPTS[@]}" "--prefix=$PREFIX"
T1=$(date +%s)
log "configure took $((T1 - T0)) s"

log "building with MAKE_NP=$MAKE_NP"
make PETSC_DIR="$SRC_DIR" PETSC_ARCH="$PETSC_ARCH_NAME" MAKE_NP="$MAKE_NP" MAKE_LOAD="${MAKE_LOAD:-64}" all
T2=$(date +%s)
log "make all took $((T2 - T1)) s"

mkdir -p "$PREFIX" || die "cannot create $PREFIX"
make PETSC_DIR="$SRC_DIR" PETSC_ARCH="$PETSC_ARCH_NAME" install
[[ -e "$PREFIX/lib/libpetsc.so" ]] || die "install finished but $PREFIX/lib/libpetsc.so is missing"
[[ -f "$PREFIX/lib/pkgconfig/petsc.pc" ]] || die "install finished but petsc.pc is missing"
echo "$STAMP_CONTENT" > "$STAMP_FILE"
T3=$(date +%s)

trap - ERR
log "DONE: PETSc $VERSION with CUDA sm_$CUDA_ARCH installed in $PREFIX"
log "  total time $((T3 - T0)) s (configure $((T1 - T0)) s, make $((T2 - T1)) s)"
log "  install size: $(du -sh "$PREFIX" | cut -f1); libpetsc: $(du -shL "$PREFIX/lib/libpetsc.so" | cut -f1)"
log "  use: PETSC_DIR=$PREFIX  PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig"
