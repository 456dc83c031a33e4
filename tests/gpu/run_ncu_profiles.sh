#!/usr/bin/env bash
# Nsight Compute on chosen kernels of femgpu-bench (-schedule: one given schedule, no
# tuning): the hardware's view of why a case is below its roofline (occupancy, spills,
# shared-memory bank conflicts, L1/L2/DRAM throughput). Clocks left alone.
# Usage: tests/gpu/run_ncu_profiles.sh OUTPUT_DIR "op dim degree schedule" ...
#   e.g. "mass 3 5 tiled nc=128 nwi=2 tq=74 ter=74 tec=[56] tqr=56 tqc=74 fp64"
# Environment: NCU_N2, NCU_N3 (mesh sizes, default 640 and 40).
# Writes ncu_<case>.csv (the metrics below plus the sections: speed of light, memory
# workload, warp states, scheduler, occupancy, launch) and ncu_<case>_atomics.csv (L2
# sectors of reductions and atomics, a second pass so an unknown metric name there
# cannot lose the first). tests/gpu/summarize_ncu.py DIR reduces them to one text file.
set -uo pipefail
out="$1"
shift
mkdir -p "$out"
metrics="launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active"
metrics+=",gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
metrics+=",l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
metrics+=",l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"
metrics+=",sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"
metrics+=",smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct"
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
metrics+=",smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct"
i=0
for spec in "$@"; do
  read -r op dim degree schedule <<<"$spec"
  i=$((i + 1))
  name="${i}_${op}_${dim}d_p${degree}"  # numbered: a case may be profiled with several schedules
  ncu --clock-control none --kernel-name femgpu_action --launch-skip 3 --launch-count 1 --metrics "$metrics" $sections --csv --page raw \
    femgpu-bench -ops "$op" -dims "$dim" -min_degree "$degree" -max_degree_2d "$degree" -max_degree_3d "$degree" \
    -n2 "${NCU_N2:-640}" -n3 "${NCU_N3:-40}" -min_seconds 0 -min_runs 15 -schedule "$schedule" >"$out/ncu_${name}.csv" 2>"$out/ncu_${name}.err"
  echo "$name rc=$?: $(grep -c . "$out/ncu_${name}.csv") lines"
  ncu --clock-control none --kernel-name femgpu_action --launch-skip 3 --launch-count 1 --csv --page raw \
    --metrics lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    femgpu-bench -ops "$op" -dims "$dim" -min_degree "$degree" -max_degree_2d "$degree" -max_degree_3d "$degree" \
    -n2 "${NCU_N2:-640}" -n3 "${NCU_N3:-40}" -min_seconds 0 -min_runs 15 -schedule "$schedule" >"$out/ncu_${name}_atomics.csv" 2>>"$out/ncu_${name}.err"
  echo "$name atomics rc=$?"
done
