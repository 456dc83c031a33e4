#!/usr/bin/env python3
"""One line per solver log of run_pmg.sh: iterations, and the -log_view event times
(-log_view_gpu_time) that make up a solve: the operator (the example's own 'Time: operator'
line: DMCreateMatrix and DMPlex's assembly for aijcusparse, the Mat's creation for fem_gpu), PC setup (PCSetUp: the p-multigrid's levels, coarse assembly and GAMG;
GAMG's setup), femgpu setup and tuning inside it, and KSPSolve; 'to solution' is
operator + PCSetUp + KSPSolve (the right-hand side, computed on the CPU by PetscDS in
every run alike, is left out and shown on its own).
Usage: summarize_pmg.py LOG..."""
import os
import re
import sys


def event(text, name):
    """The event's time summed over the -log_view stages it appears in."""
    return sum(float(t) for t in re.findall(r"^%s\s+\d+\s+[\d.]+\s+([\d.eE+-]+)" % re.escape(name), text, re.M))


def main():
    print("%-28s %6s %9s %9s %9s %9s %9s %11s %9s" % ("run", "its", "operator", "PCSetUp", "femgpu", "tuning", "KSPSolve", "to solution", "residual"))
    for path in sys.argv[1:]:
        text = open(path).read()
        its = re.search(r"KSP iterations (\d+)|(\d+) linear iterations in all", text)
        if not its:
            print("%-28s %s" % (os.path.basename(path)[:-4], "did not finish"))
            continue
        n = its.group(1) or its.group(2)
        t = re.search(r"^Time: operator ([\d.]+) s", text, re.M)
        op, pc, ksp = float(t.group(1)) if t else 0.0, event(text, "PCSetUp"), event(text, "KSPSolve")
        femgpu, tune = event(text, "FEMGPUSetUp"), event(text, "FEMGPUTune")
        residual = event(text, "DMPlexResidualFE") + event(text, "DMPlexInterp")
        print("%-28s %6s %9.3f %9.3f %9.3f %9.3f %9.3f %11.3f %9.3f" % (os.path.basename(path)[:-4], n, op, pc, femgpu, tune, ksp, op + pc + ksp, residual))


if __name__ == "__main__":
    main()
