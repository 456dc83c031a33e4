#!/usr/bin/env python3
"""One line per solver log of run_pmg.sh: iterations, and the -log_view event times
(-log_view_gpu_time) that make up a solve: the operator (the example's own 'Time: operator'
line: DMCreateMatrix and DMPlex's assembly for aijcusparse, the Mat's creation for fem_gpu), PC setup (PCSetUp: the p-multigrid's levels, coarse assembly and GAMG;
GAMG's setup), femgpu setup and tuning inside it, and KSPSolve; 'to solution' is
operator + PCSetUp + KSPSolve (the right-hand side, computed on the CPU by PetscDS in
every run alike, is left out and shown on its own: DMPlexResidualFE). For the p-multigrid,
'levels' is FEMGPUPMGLevels (the level DMs, Mats and transfers, built once) and 'coarse'
FEMGPUPMGCoarse (the P1 level's MatConvert). For SNES runs (ex3) 'SNESSolve' is the whole
Newton solve, residuals on the CPU included.
Usage: summarize_pmg.py LOG..."""
import os
import re
import sys


def event(text, name):
    """The event's time summed over the -log_view stages it appears in."""
    return sum(float(t) for t in re.findall(r"^%s\s+\d+\s+[\d.]+\s+([\d.eE+-]+)" % re.escape(name), text, re.M))


def main():
    print("%-28s %6s %9s %9s %9s %9s %9s %9s %9s %11s %9s %9s" % ("run", "its", "operator", "PCSetUp", "levels", "coarse", "femgpu", "tuning", "KSPSolve", "to solution", "residual", "SNESSolve"))
    for path in sys.argv[1:]:
        text = open(path).read()
        its = re.search(r"(\d+) linear iterations in all", text) or re.search(r"KSP iterations (\d+)", text)
        if not its:
            print("%-28s %s" % (os.path.basename(path)[:-4], "did not finish"))
            continue
        n = its.group(1)
        t = re.search(r"^Time: operator ([\d.]+) s", text, re.M)
        op, pc, ksp = float(t.group(1)) if t else 0.0, event(text, "PCSetUp"), event(text, "KSPSolve")
        femgpu, tune = event(text, "FEMGPUSetUp"), event(text, "FEMGPUTune")
        residual, snes = event(text, "DMPlexResidualFE"), event(text, "SNESSolve")
        levels, coarse = event(text, "FEMGPUPMGLevels"), event(text, "FEMGPUPMGCoarse")
        print("%-28s %6s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %11.3f %9.3f %9.3f" %
              (os.path.basename(path)[:-4], n, op, pc, levels, coarse, femgpu, tune, ksp, op + pc + ksp, residual, snes))


if __name__ == "__main__":
    main()
