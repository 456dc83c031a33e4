#!/usr/bin/env python3
"""Runs an unchanged PETSc program on a sequence of meshes with the fem_gpu p-multigrid
preconditioner, for ctest, and checks that its iteration counts do not grow with h.

  check_pmg_iterations.py --meshes A.msh,B.msh,C.msh --fem-gpu="OPTIONS" --aij="OPTIONS"
                          [--max-iterations 20] [--max-growth 1.5] [--error-tolerance 1e-4]
                          -- COMMAND ...

For each mesh, COMMAND runs with -dm_plex_filename MESH, once with -dm_mat_type aij and
the --aij options (the reference solve), once with -dm_mat_type fem_gpu and the --fem-gpu
options. Passes when every run exits 0, every fem_gpu solve takes at most
--max-iterations CG iterations, the largest count is at most --max-growth times the
smallest, and each mesh's 'L2 error' (-error_view) agrees with the reference within the
relative --error-tolerance (the same discrete solution).
"""
import argparse
import re
import shlex
import subprocess
import sys

ITERATIONS = re.compile(r"Linear solve converged due to \w+ iterations (\d+)")
ERROR = re.compile(r"L2 error: ([-+0-9.eE]+)")


def run(command):
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print("$ " + " ".join(command) + "\n" + r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: exit code %d" % r.returncode)
    its, errors = [int(m) for m in ITERATIONS.findall(r.stdout)], [float(m) for m in ERROR.findall(r.stdout)]
    if len(its) != 1 or len(errors) != 1:
        sys.exit("FAIL: expected one converged linear solve and one L2 error (give -ksp_converged_reason -error_view)")
    return its[0], errors[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--meshes", required=True)
    p.add_argument("--fem-gpu", default="")
    p.add_argument("--aij", default="")
    p.add_argument("--max-iterations", type=int, default=20)
    p.add_argument("--max-growth", type=float, default=1.5)
    p.add_argument("--error-tolerance", type=float, default=1e-4)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    counts = []
    for mesh in a.meshes.split(","):
        base = command + ["-dm_plex_filename", mesh]
        _, reference = run(base + ["-dm_mat_type", "aij"] + shlex.split(a.aij))
        its, error = run(base + ["-dm_mat_type", "fem_gpu"] + shlex.split(a.fem_gpu))
        if abs(error - reference) > a.error_tolerance * max(abs(reference), 1e-300):
            sys.exit("FAIL: %s: L2 error %g with fem_gpu, %g with aij" % (mesh, error, reference))
        counts.append(its)
    print("fem_gpu iterations per mesh: %s" % counts)
    if max(counts) > a.max_iterations:
        sys.exit("FAIL: %d iterations > %d" % (max(counts), a.max_iterations))
    if max(counts) > a.max_growth * min(counts):
        sys.exit("FAIL: iterations grow from %d to %d (more than %gx)" % (min(counts), max(counts), a.max_growth))
    print("ok")


if __name__ == "__main__":
    main()
