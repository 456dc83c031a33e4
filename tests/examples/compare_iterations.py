#!/usr/bin/env python3
"""Runs an example twice, with -dm_mat_type fem_gpu and with -dm_mat_type aij, for ctest.

  compare_iterations.py [--tolerance 1] -- COMMAND ...

Passes when both runs exit 0 and print the same lines 'KSP iterations N' / 'Newton
iterations N' (in order), each pair of counts within the tolerance. Prints both outputs.
"""
import argparse
import re
import subprocess
import sys

PATTERN = re.compile(r"((?:KSP|Newton) iterations) (\d+)")


def run(command, mat_type):
    full = command + ["-dm_mat_type", mat_type]
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    print("$ " + " ".join(full) + "\n" + r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: exit code %d with -dm_mat_type %s" % (r.returncode, mat_type))
    counts = [(m.group(1), int(m.group(2))) for m in PATTERN.finditer(r.stdout)]
    if not counts:
        sys.exit("FAIL: no iteration counts printed with -dm_mat_type %s" % mat_type)
    return counts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tolerance", type=int, default=1)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    fem_gpu, aij = run(command, "fem_gpu"), run(command, "aij")
    if [k for k, _ in fem_gpu] != [k for k, _ in aij]:
        sys.exit("FAIL: the runs print different iteration lines: %s vs %s" % (fem_gpu, aij))
    for (what, n), (_, m) in zip(fem_gpu, aij):
        print("%s: fem_gpu %d, aij %d" % (what, n, m))
        if abs(n - m) > a.tolerance:
            sys.exit("FAIL: %s differ by more than %d" % (what, a.tolerance))
    print("ok: iteration counts agree within %d" % a.tolerance)


if __name__ == "__main__":
    main()
