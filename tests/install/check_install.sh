#!/usr/bin/env bash
# The installed tree, moved, for ctest (tests/install/CMakeLists.txt runs each step):
#   check_install.sh setup BUILD WORK    cmake --install BUILD into WORK/staged, then moved out of
#                                        the build tree to a new temporary folder T/moved
#                                        (WORK/moved_to holds T)
#   check_install.sh cleanup BUILD WORK  removes T
#   check_install.sh tools SOURCE WORK   the tree's pieces; femgpu-form and femgpu-apply run from
#                                        it; the data folder found next to the binaries, or by
#                                        FEMGPU_SHARE_DIR, and an error naming it otherwise
#   check_install.sh pkg-config SOURCE WORK   consumer.c built with pkg-config, and run
#   check_install.sh cmake SOURCE WORK        consumer.c built with find_package(femgpu), and run
# Every binary runs from WORK, without LD_LIBRARY_PATH or FEMGPU_SHARE_DIR, so it can only
# find its library and data through the moved tree's RUNPATH and layout.
set -euo pipefail
step=$1 dir=$2 work=$3
if [[ $step != setup && $step != cleanup ]]; then
  work=$(cat "$work/moved_to")  # binaries in the build tree may read the source tree's data
fi
prefix=$work/moved
fail() { echo "FAIL: $*" >&2; exit 1; }
clean_env() { env -u LD_LIBRARY_PATH -u FEMGPU_SHARE_DIR -u PETSC_OPTIONS "$@"; }

# expect_value OUTPUT LABEL EXPECTED: OUTPUT has 'LABEL = X' with |X - EXPECTED| <= 1e-12 |EXPECTED|.
expect_value() {
  local x
  x=$(sed -n "s/^$2 = \(.*\)$/\1/p" <<< "$1" | head -n1)
  [[ -n "$x" ]] || fail "no line '$2 = ...' in: $1"
  awk -v x="$x" -v e="$3" 'BEGIN { d = x - e; if (d < 0) d = -d; exit !(d <= 1e-12 * (e < 0 ? -e : e)) }' ||
    fail "$2 = $x, expected $3"
  echo "ok: $2 = $x"
}

# uses_moved_library BINARY: the loader resolves libfemgpu.so inside the moved tree.
uses_moved_library() {
  local found
  found=$(clean_env ldd "$1" | awk '$1 == "libfemgpu.so" { print $3 }')
  [[ "$found" == "$prefix/lib/libfemgpu.so" || "$(realpath "$found")" == "$(realpath "$prefix/lib/libfemgpu.so")" ]] ||
    fail "$1 loads libfemgpu.so from '$found', not from the moved tree"
}

run_consumer() {
  local out
  out=$(cd "$work" && clean_env "$1" -mat_fem_gpu_form_file "$prefix/share/femgpu/forms/mass.ufl" -mat_fem_gpu_backend cpu)
  echo "$out"
  grep -q "^backend: cpu$" <<< "$out" || fail "no 'backend: cpu' line"
  expect_value "$out" "1^T A 1" 2
}

case $step in
setup)
  if [[ -f "$work/moved_to" ]]; then rm -rf "$(cat "$work/moved_to")"; fi
  rm -rf "$work"
  mkdir -p "$work"
  cmake --install "$dir" --prefix "$work/staged" --strip > "$work/install.log"
  moved_to=$(mktemp -d "${TMPDIR:-/tmp}/femgpu-install-XXXXXX")
  mv "$work/staged" "$moved_to/moved"
  echo "$moved_to" > "$work/moved_to"
  echo "ok: installed into $work/staged, moved to $moved_to/moved"
  ;;
cleanup)
  if [[ -f "$work/moved_to" ]]; then rm -rf "$(cat "$work/moved_to")" && rm "$work/moved_to"; fi
  ;;
tools)
  for f in bin/femgpu-form bin/femgpu-apply bin/femgpu-probe lib/libfemgpu.so include/femgpu.h lib/pkgconfig/femgpu.pc \
           lib/cmake/femgpu/femgpuConfig.cmake lib/cmake/femgpu/femgpuConfigVersion.cmake share/femgpu/forms/mass.ufl \
           share/femgpu/quadrature share/femgpu/device; do
    [[ -e "$prefix/$f" ]] || fail "the installed tree has no $f"
  done
  # share/femgpu is installed as it is in the source tree (run-time data only; femgpu-bench
  # reads bench/), and no repository material (records/, scripts/) comes with it.
  diff <(cd "$dir/share/femgpu" && find . -type f -not -path '*/__pycache__/*' | sort) \
       <(cd "$prefix/share/femgpu" && find . -type f | sort) > "$work/share.diff" ||
    fail "the installed share/femgpu differs from the source tree's (< source, > installed): $(cat "$work/share.diff")"
  for f in records scripts; do
    [[ ! -e "$prefix/$f" && ! -e "$prefix/share/femgpu/$f" ]] || fail "the installed tree has $f (repository material, not run-time data)"
  done
  readelf -d "$prefix/bin/femgpu-apply" | grep -q 'R.*PATH.*\$ORIGIN/\.\./lib' || fail "femgpu-apply has no \$ORIGIN/../lib RUNPATH"
  uses_moved_library "$prefix/bin/femgpu-apply"
  # The paper's Table 3 row for hyperelasticity P6 (quadrature from the moved tree's tables).
  form=$(cd "$work" && clean_env "$prefix/bin/femgpu-form" "$prefix/share/femgpu/forms/hyperelasticity.ufl" --cell triangle --degree 6 --components 2)
  grep -q '"Q": 79' <<< "$form" || fail "femgpu-form: no \"Q\": 79 in: $form"
  echo "ok: the installed femgpu-form lowers hyperelasticity P6 with Q = 79"
  apply=$(cd "$work" && clean_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$prefix/bin/femgpu-apply" \
          -form_file "$prefix/share/femgpu/forms/mass.ufl" -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degree 2 \
          -u_expr 'x[0]*x[1]' -v_expr 'x[0]' -mat_fem_gpu_backend cpu)
  expect_value "$apply" "a(u,v)" 0.16666666666666667
  # A binary away from the tree's share/ finds it only through FEMGPU_SHARE_DIR.
  mkdir -p "$work/odd/bin"
  cp "$prefix/bin/femgpu-form" "$work/odd/bin/"
  odd=(--cell triangle --degree 2 "$prefix/share/femgpu/forms/laplace.ufl")
  if out=$(cd "$work" && clean_env "$work/odd/bin/femgpu-form" "${odd[@]}" 2>&1); then fail "femgpu-form ran without its data folder: $out"; fi
  grep -q "cannot find its data folder share/femgpu .*set FEMGPU_SHARE_DIR" <<< "$out" || fail "unexpected error: $out"
  echo "ok: without share/ next to it: $out"
  out=$(cd "$work" && clean_env FEMGPU_SHARE_DIR="$prefix/share/femgpu" "$work/odd/bin/femgpu-form" "${odd[@]}")
  grep -q '"Q": 3,' <<< "$out" || fail "femgpu-form with FEMGPU_SHARE_DIR: no \"Q\": 3 (the degree-2 table rule) in: $out"
  echo "ok: FEMGPU_SHARE_DIR points it at the data folder"
  ;;
pkg-config)
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  cc=$(pkg-config --variable=ccompiler petsc)
  read -r -a flags <<< "$(pkg-config --cflags --libs femgpu)"
  (set -x; "${cc:-mpicc}" "$dir/tests/install/consumer.c" -o "$work/consumer_pkg_config" "${flags[@]}" \
     -Wl,-rpath,"$(pkg-config --variable=libdir femgpu)")
  uses_moved_library "$work/consumer_pkg_config"
  run_consumer "$work/consumer_pkg_config"
  ;;
cmake)
  rm -rf "$work/cmake_consumer"
  cmake -S "$dir/tests/install/cmake_consumer" -B "$work/cmake_consumer" -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake_consumer.log" ||
    { cat "$work/cmake_consumer.log"; fail "configuring the CMake consumer"; }
  cmake --build "$work/cmake_consumer" >> "$work/cmake_consumer.log" || { cat "$work/cmake_consumer.log"; fail "building the CMake consumer"; }
  grep -q "femgpu_DIR:PATH=$prefix/lib/cmake/femgpu" "$work/cmake_consumer/CMakeCache.txt" || fail "find_package(femgpu) did not take the moved tree"
  uses_moved_library "$work/cmake_consumer/consumer"
  run_consumer "$work/cmake_consumer/consumer"
  ;;
*)
  fail "unknown step $step"
  ;;
esac
