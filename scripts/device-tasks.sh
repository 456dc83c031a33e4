#!/usr/bin/env bash
# One device call: runs the named tasks in order, each into $OUT/w/<task>, until the call's
# time is spent, then packs $OUT/w into $OUT/results.tgz. Run from the repository root on
# the GPU machine with the pack of pack-for-device.sh in .carry (and .carry/COMMIT holding
# the commit the binaries were built from).
#   whole            records/solvers/run_whole_solve.sh (ex1 2D/3D P2 whole solves)
#   pmg:SET          records/solvers/run_pmg.sh SET (several GPUs: device-lanes.sh)
#   petsc_checks[:REGEX]  tests/gpu/run_petsc_checks.sh (PETSc comparisons on the CUDA
#                    backend; REGEX: only the checks whose names match)
#   gpu_suite        tests/gpu/run_gpu_suite.sh (every schedule against the CPU reference)
#   convert:PART     tests/gpu/run_convert_checks.sh PART (checks | timings | all)
#   bench:OPS:DIMS:LO:HI2:HI3[:extra]  femgpu-bench cases -> csv/json/log; extra: more
#                    femgpu-bench options, words separated by spaces or commas (commas for
#                    device-lanes.sh, which splits a lane at spaces): "-n3,40" is "-n3 40"
#   gpu_check:ARGS   femgpu-gpu-check with ARGS (commas for spaces), e.g. the assembled
#                    operator's cases: gpu_check:-ops,mass,-dims,3,-max_degree_3d,1
#   sh:SCRIPT[:ARGS] bash SCRIPT OUT_DIR ARGS (commas for spaces), a repository script that
#                    writes into OUT_DIR, e.g. an experiment's forced-schedule runs; ARGS
#                    are split at commas and spaces alike, so a script whose arguments hold
#                    spaces (tests/gpu/run_ncu_profiles.sh's specs) needs a wrapper script
#   unit:SPEC        the Catch2 unit tests matching SPEC (e.g. "[cuda]": those that need
#                    the GPU), from the pack's bin/tests/femgpu_unit_tests
# Environment: CALL_LIMIT (seconds for all tasks, default 570).
# Usage: scripts/device-tasks.sh TASK...
set -u
start=$SECONDS
final=$OUT
work=$final/w
mkdir -p "$work"
limit=${CALL_LIMIT:-570}
source .carry/env.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
export FEMGPU_COMMIT=$(cat .carry/COMMIT)
export XDG_CACHE_HOME=$work/cache  # the call's own tuning cache (lanes of device-lanes.sh each theirs)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$work/device.txt"
echo "commit $FEMGPU_COMMIT $(date -u +%FT%TZ)" >>"$work/device.txt"
for task in "$@"; do
  left=$((limit - (SECONDS - start)))
  if ((left < 30)); then echo "skip $task (time)"; continue; fi
  name=$(echo "$task" | tr ':,/' '___')
  # a file name has at most 255 bytes: a long task keeps its start and a checksum
  ((${#name} > 120)) && name="${name:0:100}_$(echo "$task" | md5sum | cut -c1-8)"
  t0=$SECONDS
  case "$task" in
    whole) timeout $left bash records/solvers/run_whole_solve.sh "$work/whole" examples/forms >"$work/whole.txt" 2>&1 ;;
    pmg:*) timeout $left bash records/solvers/run_pmg.sh "$work/$name" "${task#pmg:}" >"$work/$name.txt" 2>&1 ;;
    petsc_checks*) ONLY="${task#petsc_checks:}" && [ "$task" = petsc_checks ] && ONLY=.
      ONLY="$ONLY" timeout $left bash tests/gpu/run_petsc_checks.sh "$work/$name" >"$work/$name.txt" 2>&1 ;;
    convert:*) timeout $left bash tests/gpu/run_convert_checks.sh "$work/$name" "${task#convert:}" >"$work/$name.txt" 2>&1 ;;
    gpu_suite) timeout $left bash tests/gpu/run_gpu_suite.sh "$work/gpu_suite" >"$work/gpu_suite.txt" 2>&1 ;;
    bench:*)
      IFS=: read -r _ ops dims lo hi2 hi3 extra <<<"$task"
      extra=${extra:-} && extra=${extra//,/ }
      # shellcheck disable=SC2086  # extra is a list of words
      timeout $left stdbuf -oL femgpu-bench -ops "$ops" -dims "$dims" -min_degree "$lo" -max_degree_2d "$hi2" -max_degree_3d "$hi3" $extra \
        -csv "$work/$name.csv" -json "$work/$name.json" >"$work/$name.log" 2>&1 ;;
    gpu_check:*) args=${task#gpu_check:} && args=${args//,/ }
      # shellcheck disable=SC2086  # args is a list of words
      timeout $left femgpu-gpu-check $args >"$work/$name.txt" 2>&1 ;;
    sh:*) IFS=: read -r _ script args <<<"$task" && args=${args:-} && args=${args//,/ }
      # shellcheck disable=SC2086  # args is a list of words
      timeout $left bash "$script" "$work/$name" $args >"$work/$name.txt" 2>&1 ;;
    unit:*) timeout $left .carry/bin/tests/femgpu_unit_tests "${task#unit:}" >"$work/$name.txt" 2>&1 ;;
    *) echo "unknown task $task" ;;
  esac
  echo "$task: rc=$? $((SECONDS - t0)) s"
done
find "$work" -type d -name "cache*" -prune -exec rm -rf {} +
tar czf "$final/results.tgz" -C "$work" . && cp "$work/device.txt" "$final/" && rm -rf "$work"
ls -la "$final"
