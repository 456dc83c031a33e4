#!/usr/bin/env bash
# Nsight Compute profile of forced schedules, one kernel launch each (the fourth of the
# action kernel), the full section set, clocks left alone (--clock-control none).
# Usage (device-tasks.sh task sh:records/experiments/ncu_profile.sh:ARGS):
#   ncu_profile.sh OUT_DIR "OP:DIM:DEG:SCHEDULE"...  (SCHEDULE as MatView prints it,
#   + for spaces, since device-tasks.sh splits its arguments at commas)
# Writes OUT_DIR/<i>_<case>.txt (ncu --page details) and OUT_DIR/<case>.ncu-rep.
set -u
out="$1"; shift
mkdir -p "$out"
bench=${BENCH:-femgpu-bench}
n=0
for c in "$@"; do
  n=$((n + 1))
  IFS=: read -r op dim deg sched <<<"$c"
  sched=${sched//+/ }
  name="${n}_${op}_${dim}_${deg}"
  echo "=== $op $dim $deg $sched"
  ncu --clock-control none --set full -k regex:femgpu_action --launch-skip 3 --launch-count 1 \
    -o "$out/$name" -f \
    "$bench" -ops "$op" -dims "$dim" -min_degree "$deg" -max_degree_2d "$deg" -max_degree_3d "$deg" \
    -schedule "$sched" -spmv_max_cell_entries 0 -verify_cells 0 -min_runs 2 -min_seconds 0 -warmups 1 >"$out/$name.run.txt" 2>&1
  echo "ncu exit $?"
  ncu --import "$out/$name.ncu-rep" --page details >"$out/$name.txt" 2>&1
  grep -E "Duration|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Warp Cycles Per Issued" "$out/$name.txt" | head -20
done
