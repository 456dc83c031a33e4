#!/usr/bin/env python3
"""Summarize the example logs of run_solvers.sh (-log_view): iterations, the one-time
setup (fem_gpu: FEMGPUSetUp incl. tuning, and the diagonal; aijcusparse: the operator's
assembly as the example timed it), time per Krylov iteration without the one-time work,
the operator's share (FEMGPUApply or MatMult per call), and GPU memory.
Usage: summarize_solvers.py LOG..."""
import gzip
import os
import re
import sys


def read_log(path):
    """A log's text, plain or gzipped (records/compress_logs.sh gzips logs over 16 KB)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return f.read()


def log_name(path):
    """The log's file name without .log or .log.gz."""
    return re.sub(r"\.log(\.gz)?$", "", os.path.basename(path))


def event(text, name):
    m = re.search(r"^%s\s+(\d+)\s+[\d.]+\s+([\d.e+-]+)" % re.escape(name), text, re.M)
    return (int(m.group(1)), float(m.group(2))) if m else (0, 0.0)


def line(text, pattern, default="?"):
    m = re.search(pattern, text, re.M)
    return m.group(1) if m else default


print(f"{'run':34s} {'its':>6s} {'operator s':>10s} {'setup s':>8s} {'solve s':>8s} {'ms/it':>7s} {'op ms/call':>10s} {'GPU MiB':>8s}")
for path in sys.argv[1:]:
    t = read_log(path)
    name = log_name(path)
    its = int(line(t, r"(\d+) linear iterations in all", line(t, r"^KSP iterations (\d+)", "0")))
    op = float(line(t, r"Time: operator ([\d.]+) s", "0"))
    solve = float(line(t, r"solve ([\d.]+) s", "0")) or event(t, "KSPSolve")[1]
    mem = line(t, r"GPU memory in use after the solve: (\d+) MiB")
    setup = event(t, "FEMGPUSetUp")[1] + event(t, "FEMGPUDiagonal")[1]
    if "fem_gpu" in name:
        calls, apply_s = event(t, "FEMGPUApply")
    else:
        calls, apply_s = 0, float("nan")  # MatMult also counts PETSc's own calls outside the solve
        if "ex3" in name:  # SNES: the assembly of every Newton step is one-time work per step
            setup = event(t, "SNESJacobianEval")[1]
    per_it = 1e3 * (solve - setup) / its if its else 0
    print(f"{name:34s} {its:6d} {op:10.3f} {setup:8.3f} {solve:8.3f} {per_it:7.3f} {1e3 * apply_s / max(calls, 1):10.4f} {mem:>8s}")
