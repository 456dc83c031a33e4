#!/usr/bin/env python3
"""Runs an unchanged PETSc program twice, for ctest: with -dm_mat_type aij, and with
-dm_mat_type fem_gpu plus the options after --fem-gpu (the library loaded by -dll_append
in COMMAND), then compares what PETSc printed.

  compare_unchanged_program.py "--fem-gpu=OPTIONS" -- COMMAND ...

Passes when both runs exit 0, print the same number of linear solves
('Linear solve converged due to ... iterations N', from -ksp_converged_reason, or with a
KSP's prefix 'Linear mass_ solve ...') with
counts within --iterations (default 1; -1: not compared) of each other, and the same
'L2 error: X' lines (from -error_view; the examples print 'L2 error X'; TS's -ts_monitor_error
'L_2 Error: [X]') within a relative --error-tolerance (default
1e-6); with --snes-norms RTOL also the same Newton history ('N SNES Function norm X',
from -snes_monitor), each norm within RTOL relative or --norm-floor (1e-12) of the first norm;
with --max-iterations N every linear solve of the fem_gpu run takes at most N iterations.
"""
import argparse
import re
import shlex
import subprocess
import sys

ITERATIONS = re.compile(r"Linear (?:\w+ )?solve converged due to \w+ iterations (\d+)")  # a prefixed KSP: "Linear mass_ solve"
ERROR = re.compile(r"L_?2 [Ee]rror:? \[?([-+0-9.eE]+)")  # snes examples' -error_view; ts' -ts_monitor_error
SNES_NORM = re.compile(r"\d+ SNES Function norm ([-+0-9.eE]+)")


def run(command):
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print("$ " + " ".join(command) + "\n" + r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: exit code %d" % r.returncode)
    iterations = [int(m) for m in ITERATIONS.findall(r.stdout)]
    errors = [float(m) for m in ERROR.findall(r.stdout)]
    norms = [float(m) for m in SNES_NORM.findall(r.stdout)]
    if not iterations:
        sys.exit("FAIL: no converged linear solve printed (give -ksp_converged_reason)")
    return iterations, errors, norms


def close(xs, ys, rtol, floor=0.0):
    """Each pair within rtol relative, or within floor absolute."""
    return len(xs) == len(ys) and all(abs(x - y) <= max(rtol * max(abs(x), abs(y), 1e-300), floor) for x, y in zip(xs, ys))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fem-gpu", default="", help="the fem_gpu run's extra options, as one string")
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--error-tolerance", type=float, default=1e-6)
    p.add_argument("--snes-norms", type=float)
    p.add_argument("--max-iterations", type=int, help="the most iterations a linear solve of the fem_gpu run may take")
    p.add_argument("--norm-floor", type=float, default=1e-12,
                   help="norms are equal within this fraction of the first norm (a linear solve to rtol R leaves ~R of it)")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    aij_its, aij_errors, aij_norms = run(command + ["-dm_mat_type", "aij"])
    gpu_its, gpu_errors, gpu_norms = run(command + ["-dm_mat_type", "fem_gpu"] + shlex.split(a.fem_gpu))
    if a.iterations >= 0 and (len(aij_its) != len(gpu_its) or any(abs(x - y) > a.iterations for x, y in zip(aij_its, gpu_its))):
        sys.exit("FAIL: linear iterations differ: aij %s, fem_gpu %s" % (aij_its, gpu_its))
    if a.max_iterations is not None and max(gpu_its) > a.max_iterations:
        sys.exit("FAIL: a fem_gpu linear solve took more than %d iterations: %s" % (a.max_iterations, gpu_its))
    if not close(aij_errors, gpu_errors, a.error_tolerance):
        sys.exit("FAIL: L2 errors differ: aij %s, fem_gpu %s" % (aij_errors, gpu_errors))
    # A converged Newton step's norm is ~1e-10 of the first, where the two residuals' rounding
    # (1e-16 of each term, summed over the cells) is no longer small against it: norms are
    # compared relative to themselves and, at least, to --norm-floor (1e-12) of the first norm.
    floor = a.norm_floor * abs(aij_norms[0]) if aij_norms else 0.0
    if a.snes_norms is not None and (not aij_norms or not close(aij_norms, gpu_norms, a.snes_norms, floor)):
        sys.exit("FAIL: Newton histories differ: aij %s, fem_gpu %s" % (aij_norms, gpu_norms))
    print("ok: linear iterations aij %s, fem_gpu %s; L2 errors aij %s, fem_gpu %s; SNES norms aij %s, fem_gpu %s"
          % (aij_its, gpu_its, aij_errors, gpu_errors, aij_norms, gpu_norms))


if __name__ == "__main__":
    main()
