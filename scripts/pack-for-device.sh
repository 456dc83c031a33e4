#!/usr/bin/env bash
# Assemble a small run-time folder for a GPU machine that already has the CUDA
# driver + toolkit (/usr/local/cuda), OpenMPI 4.x (libmpi.so.40) and OpenBLAS,
# but no PETSc.
#
# Usage:  pack-for-device.sh [-p PETSC_PREFIX] [-o PACK_DIR] [BUILD_DIR]
#   -p PETSC_PREFIX  PETSc install prefix (default: $PETSC_CUDA_PREFIX or /opt/femgpu/petsc-cuda);
#                    Debian's /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real packs the CPU PETSc
#                    (femgpu-bench then has no cuSPARSE SpMV baseline)
#   -o PACK_DIR      output folder (default: <repo root>/.carry, git-ignored); it is wiped first
#   BUILD_DIR        femgpu CMake build dir (optional; without it only PETSc is packed)
# Environment: PACK_LIMIT_MIB (default 60) - fail if the pack is larger.
#   PACK_BINS - pack only these executables (paths relative to BUILD_DIR, spaces
#   between), e.g. "femgpu-bench femgpu-gpu-check"; femgpu's own shared libraries then
#   come only where a packed executable needs them. The device tool carries at most
#   64 MiB of working tree and pack together: the report says how much is left.
#
# Layout of the pack:
#   lib/      libpetsc.so* (stripped) + any non-system shared lib they need + femgpu .so files
#   bin/      femgpu executables from BUILD_DIR (stripped; relative paths kept)
#   share/femgpu/  the data femgpu reads at run time (forms, quadrature, device helpers)
#   env.sh    `source .carry/env.sh` on the device: sets LD_LIBRARY_PATH, PATH, PETSC_OPTIONS
#   MANIFEST.txt  what was packed and the ldd findings
#
# A shared-library dependency is treated as "provided by the device" when it is
# from the CUDA toolkit/driver, glibc (libc/libm/libdl/librt/libpthread/ld-linux),
# the GCC runtime (libstdc++/libgcc_s), OpenMPI (libmpi*, libopen-*), or the
# BLAS/LAPACK/Fortran runtime (libopenblas, liblapack, libblas, libgfortran,
# libquadmath). Everything else is listed in MANIFEST.txt and copied.
set -Eeuo pipefail

die() { echo "pack-for-device: ERROR: $*" >&2; exit 1; }
log() { echo "pack-for-device: $*"; }

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel 2>/dev/null || (cd "$SCRIPT_DIR/.." && pwd))"

PETSC_PREFIX="${PETSC_CUDA_PREFIX:-/opt/femgpu/petsc-cuda}"
PACK_DIR="$REPO_ROOT/.carry"
LIMIT_MIB="${PACK_LIMIT_MIB:-60}"
while getopts "p:o:h" opt; do
  case "$opt" in
    p) PETSC_PREFIX="$OPTARG" ;;
    o) PACK_DIR="$OPTARG" ;;
    h) sed -n '2,25p' "$0"; exit 0 ;;
    *) die "bad option (see -h)" ;;
  esac
done
shift $((OPTIND - 1))
BUILD_DIR="${1:-${FEMGPU_BUILD_DIR:-}}"

for t in ldd readelf strip file; do command -v "$t" >/dev/null || die "$t not found"; done
[[ -d "$PETSC_PREFIX/lib" ]] || die "PETSc prefix $PETSC_PREFIX has no lib/ (build it with build-petsc-cuda.sh)"
compgen -G "$PETSC_PREFIX/lib/libpetsc*.so*" >/dev/null || die "no libpetsc*.so* in $PETSC_PREFIX/lib"
if [[ -n "$BUILD_DIR" ]]; then
  [[ -d "$BUILD_DIR" ]] || die "build dir $BUILD_DIR does not exist"
  BUILD_DIR="$(cd "$BUILD_DIR" && pwd)"
fi

# ---------------------------------------------------------------- prepare output
mkdir -p "$PACK_DIR"
PACK_DIR="$(cd "$PACK_DIR" && pwd)"
[[ "$PACK_DIR" != "/" && "$PACK_DIR" != "$REPO_ROOT" ]] || die "refusing to use $PACK_DIR as pack dir"
if [[ -n "$(ls -A "$PACK_DIR")" && ! -f "$PACK_DIR/.femgpu-pack" ]]; then
  die "$PACK_DIR is not empty and is not a previous pack (no .femgpu-pack marker); refusing to wipe it"
fi
find "$PACK_DIR" -mindepth 1 -delete
mkdir -p "$PACK_DIR/lib" "$PACK_DIR/bin"
touch "$PACK_DIR/.femgpu-pack"
MANIFEST="$PACK_DIR/MANIFEST.txt"
{
  echo "femgpu device pack, created $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "PETSc prefix: $PETSC_PREFIX"
  echo "femgpu build dir: ${BUILD_DIR:-<none>}"
} > "$MANIFEST"

# Name patterns of libraries the device machine provides.
is_provided() {
  case "$1" in
    linux-vdso.so*|ld-linux*.so*|libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libresolv.so*|libutil.so*|libmvec.so*) return 0 ;;
    libstdc++.so*|libgcc_s.so*|libatomic.so*|libgomp.so*) return 0 ;;
    libmpi.so*|libmpi_*.so*|libopen-*.so*) return 0 ;;
    libopenblas*.so*|liblapack*.so*|libblas*.so*|libcblas*.so*|libgfortran.so*|libquadmath.so*) return 0 ;;
    libcuda.so*|libcudart.so*|libcublas*.so*|libcusparse*.so*|libcusolver*.so*|libcufft*.so*|libcurand*.so*) return 0 ;;
    libnvrtc*.so*|libnvJitLink*.so*|libnvtx3interop*.so*|libnvToolsExt*.so*|libnvidia-ml.so*|libcupti*.so*) return 0 ;;
  esac
  return 1
}

is_elf() { file -bL "$1" | grep -q '^ELF'; }

# copy_elf SRC DEST: copy, strip --strip-unneeded, keep it writable for strip.
copy_elf() {
  cp -L "$1" "$2"
  chmod u+w "$2"
  strip --strip-unneeded "$2" 2>/dev/null || log "warning: could not strip $2"
}

QUEUE=()   # packed ELF files whose NEEDED entries must be checked

# ---------------------------------------------------------------- PETSc
# libpetsc.so* (a PETSc build) or libpetsc_real.so* (Debian's, whose prefix holds only
# links into /usr/lib: then the file they resolve to is packed).
PETSC_LIB_DIR="$(cd "$PETSC_PREFIX/lib" && pwd -P)"
for f in "$PETSC_PREFIX"/lib/libpetsc*.so*; do
  real="$(readlink -f "$f")"
  if [[ -L "$f" && "$(dirname "$real")" == "$PETSC_LIB_DIR" ]]; then
    continue   # links within the prefix are recreated below
  fi
  name="$(basename "$real")"
  [[ -e "$PACK_DIR/lib/$name" ]] && continue
  copy_elf "$real" "$PACK_DIR/lib/$name"
  QUEUE+=("$PACK_DIR/lib/$name")
  REAL_PETSC="$name"
  echo "packed: lib/$name (from $f)" >> "$MANIFEST"
done
[[ -n "${REAL_PETSC:-}" ]] || die "no libpetsc*.so* file found"
for f in "$PETSC_PREFIX"/lib/libpetsc*.so*; do
  [[ -L "$f" && "$(basename "$f")" != "$REAL_PETSC" ]] || continue
  ln -sf "$REAL_PETSC" "$PACK_DIR/lib/$(basename "$f")"
done

# ---------------------------------------------------------------- femgpu build products
if [[ -n "$BUILD_DIR" ]]; then
  while IFS= read -r -d '' f; do
    rel="${f#"$BUILD_DIR"/}"
    if [[ "$(basename "$f")" == *.so* ]]; then
      [[ -L "$f" ]] && continue
      [[ -n "${PACK_BINS:-}" ]] && continue  # the dependency closure copies what is needed
      dest="$PACK_DIR/lib/$(basename "$f")"
    else
      [[ -x "$f" ]] || continue
      [[ -z "${PACK_BINS:-}" || " $PACK_BINS " == *" $rel "* ]] || continue
      dest="$PACK_DIR/bin/$rel"
    fi
    is_elf "$f" || continue
    mkdir -p "$(dirname "$dest")"
    copy_elf "$f" "$dest"
    QUEUE+=("$dest")
    echo "packed: ${dest#"$PACK_DIR"/} (from $f)" >> "$MANIFEST"
  done < <(find "$BUILD_DIR" \( -name CMakeFiles -o -name _deps -o -name .carry \) -prune -o -type f -print0)
  # re-create symlinks of femgpu shared libraries (libfoo.so -> libfoo.so.1 ...)
  while IFS= read -r -d '' l; do
    tgt="$(basename "$(readlink -f "$l")")"
    [[ -e "$PACK_DIR/lib/$tgt" ]] && ln -sf "$tgt" "$PACK_DIR/lib/$(basename "$l")"
  done < <(find "$BUILD_DIR" \( -name CMakeFiles -o -name _deps \) -prune -o -type l -name '*.so*' -print0)
fi

# ---------------------------------------------------------------- run-time data
# Packed binaries lie outside the build tree, so they find share/femgpu through
# FEMGPU_SHARE_DIR (env.sh), not the source tree (src/fem/share_dir.h).
mkdir -p "$PACK_DIR/share/femgpu"
# femgpu-bench reads the paper's GDoF/s (its "paper" column) and -rerank's default
# device parameters from bench/.
for d in forms quadrature device bench; do cp -r "$REPO_ROOT/share/femgpu/$d" "$PACK_DIR/share/femgpu/"; done
echo "packed: share/femgpu/{forms,quadrature,device,bench} (from $REPO_ROOT/share/femgpu)" >> "$MANIFEST"

# ---------------------------------------------------------------- dependency closure
echo "" >> "$MANIFEST"
echo "== ldd findings (direct NEEDED entries of packed files) ==" >> "$MANIFEST"
declare -A SEEN=()
EXTRA=()
MISSING=()
i=0
while (( i < ${#QUEUE[@]} )); do
  obj="${QUEUE[$i]}"; i=$((i + 1))
  ldd_out="$(LD_LIBRARY_PATH="$PACK_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$obj" 2>&1 || true)"
  while read -r need; do
    [[ -n "$need" ]] || continue
    [[ -n "${SEEN[$need]:-}" ]] && continue
    SEEN[$need]=1
    path="$(awk -v n="$need" '($1 == n && $2 == "=>") { print $3; exit }
                             ($2 != "=>" && $1 ~ ("/" n "$")) { print $1; exit }' <<< "$ldd_out")"
    if is_provided "$need"; then
      echo "  device-provided: $need => ${path:-<not found here>}" >> "$MANIFEST"
      continue
    fi
    if [[ -e "$PACK_DIR/lib/$need" ]]; then
      echo "  packed:          $need" >> "$MANIFEST"
      continue
    fi
    if [[ -z "$path" || "$path" == "not" ]]; then
      MISSING+=("$need (needed by ${obj#"$PACK_DIR"/})")
      echo "  MISSING here:    $need (needed by ${obj#"$PACK_DIR"/})" >> "$MANIFEST"
      continue
    fi
    copy_elf "$path" "$PACK_DIR/lib/$need"
    QUEUE+=("$PACK_DIR/lib/$need")
    EXTRA+=("$need <= $path")
    echo "  COPIED extra:    $need <= $path" >> "$MANIFEST"
  done < <(readelf -d "$obj" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done

# ---------------------------------------------------------------- symbol-version check
max_ver() { # max GLIBC_x.y / GLIBCXX_x.y.z needed by the packed files
  for o in "${QUEUE[@]}"; do objdump -T "$o" 2>/dev/null; done \
    | grep -o "$1_[0-9][0-9.]*" | sort -Vu | tail -n1
}
if command -v objdump >/dev/null; then
  echo "" >> "$MANIFEST"
  echo "max symbol versions needed: $(max_ver GLIBC) $(max_ver GLIBCXX) $(max_ver CXXABI)" >> "$MANIFEST"
  echo "(Ubuntu 24.04 provides GLIBC_2.39, GLIBCXX_3.4.32, CXXABI_1.3.14)" >> "$MANIFEST"
fi

# ---------------------------------------------------------------- env.sh
cat > "$PACK_DIR/env.sh" <<'EOF'
# Source this on the device machine:  source .carry/env.sh
_femgpu_pack="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
_femgpu_cuda="${CUDA_HOME:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$_femgpu_pack/lib:$_femgpu_cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$_femgpu_pack/bin:$_femgpu_cuda/bin${PATH:+:$PATH}"
# The system OpenMPI is not CUDA-aware: tell PETSc (set FEMGPU_GPU_AWARE_MPI=1 to skip).
if [ "${FEMGPU_GPU_AWARE_MPI:-0}" != 1 ]; then
  case " ${PETSC_OPTIONS:-} " in
    *" -use_gpu_aware_mpi "*) ;;
    *) export PETSC_OPTIONS="${PETSC_OPTIONS:+$PETSC_OPTIONS }-use_gpu_aware_mpi 0" ;;
  esac
fi
# mpiexec refuses to run as root without these (harmless otherwise).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export FEMGPU_PACK_DIR="$_femgpu_pack"
export FEMGPU_SHARE_DIR="${FEMGPU_SHARE_DIR:-$_femgpu_pack/share/femgpu}"
unset _femgpu_pack _femgpu_cuda
EOF

# ---------------------------------------------------------------- report
SIZE_B="$(du -sb "$PACK_DIR" | cut -f1)"
SIZE_MIB="$(awk -v b="$SIZE_B" 'BEGIN { printf "%.1f", b / 1048576 }')"
echo "" >> "$MANIFEST"
echo "total size: $SIZE_B bytes ($SIZE_MIB MiB)" >> "$MANIFEST"

log "pack dir: $PACK_DIR"
(cd "$PACK_DIR" && find . -type f -o -type l | sort | while read -r f; do
   if [[ -L "$f" ]]; then echo "    $f -> $(readlink "$f")"; else echo "    $f  $(du -h "$f" | cut -f1)"; fi
 done)
if (( ${#EXTRA[@]} )); then
  log "extra non-system libraries copied:"; printf '    %s\n' "${EXTRA[@]}"
else
  log "no extra non-system libraries needed (only CUDA/glibc/gcc/OpenMPI/OpenBLAS)"
fi
if (( ${#MISSING[@]} )); then
  log "WARNING: unresolved dependencies (not found on this machine):"; printf '    %s\n' "${MISSING[@]}"
fi
log "total size: $SIZE_MIB MiB (limit $LIMIT_MIB MiB); details in $MANIFEST"
# The device tool carries the tracked files and the pack together, 64 MiB at most.
if TREE_B="$(git -C "$REPO_ROOT" ls-files -z 2>/dev/null | (cd "$REPO_ROOT" && xargs -0 cat 2>/dev/null) | wc -c)"; then
  LEFT_B=$((64 * 1048576 - TREE_B - SIZE_B))
  log "tracked files $(awk -v b="$TREE_B" 'BEGIN { printf "%.1f", b / 1048576 }') MiB + pack: $(awk -v b="$LEFT_B" 'BEGIN { printf "%.1f", b / 1048576 }') MiB left of the 64 MiB a device call carries"
  ((LEFT_B >= 0)) || log "WARNING: over what a device call carries; pack fewer executables (PACK_BINS)"
fi
if (( SIZE_B > LIMIT_MIB * 1048576 )); then
  die "pack is $SIZE_MIB MiB, over the $LIMIT_MIB MiB limit"
fi
if (( ${#MISSING[@]} )); then exit 2; fi
log "on the device: source $(basename "$PACK_DIR")/env.sh"
