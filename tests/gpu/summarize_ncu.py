#!/usr/bin/env python3
"""Reduce the ncu --csv --page raw files of run_ncu_profiles.sh to the metrics that explain
a kernel (time, occupancy, L1/L2/DRAM throughput, FP64 and issue activity, stall reasons,
L2 reduction sectors), one block per file. Usage: summarize_ncu.py DIR > summary.txt"""
import csv
import glob
import os
import sys

KEYS = [
    'gpu__time_duration.sum', 'launch__block_size', 'launch__registers_per_thread', 'sm__warps_active.avg.pct_of_peak_sustained_active',
    'lts__throughput.avg.pct_of_peak_sustained_elapsed', 'lts__t_sectors.avg.pct_of_peak_sustained_elapsed',
    'lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed', 'dram__throughput.avg.pct_of_peak_sustained_elapsed',
    'l1tex__throughput.avg.pct_of_peak_sustained_active', 'l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed',
    'l1tex__t_sector_hit_rate.pct', 'lts__t_sector_hit_rate.pct', 'idc__request_cycles_active.avg.pct_of_peak_sustained_elapsed',
    'sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active', 'sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active',
    'smsp__issue_active.avg.pct_of_peak_sustained_active', 'smsp__inst_executed.sum', 'sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed',
    'smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct', 'smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct',
    'smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct', 'smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct',
    'smsp__warp_issue_stalled_barrier_per_warp_active.pct', 'smsp__average_warps_issue_stalled_wait_per_issue_active.ratio',
    'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio', 'lts__t_sectors_op_red.sum', 'lts__t_sectors_op_atom.sum',
    'lts__t_sectors_op_read.sum', 'lts__t_sectors_op_write.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_red.sum',
    'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'dram__bytes_read.sum',
    'dram__bytes_write.sum']

for path in sorted(glob.glob(os.path.join(sys.argv[1], '*.csv'))):
    rows = list(csv.reader(open(path, errors='replace')))
    header = [i for i, r in enumerate(rows) if r and r[0] == 'ID']
    print('##', os.path.basename(path))
    if not header:
        print('  no table:', ' | '.join(' '.join(r) for r in rows[-3:])[:400])
        continue
    names, units, values = rows[header[0]], rows[header[0] + 1], rows[header[0] + 2]
    for k in KEYS:
        if k in names:
            i = names.index(k)
            print('  %s = %s %s' % (k, values[i], units[i]))
