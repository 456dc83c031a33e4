#!/usr/bin/env python3
"""Runs a command and checks its output, for ctest.

  check_output.py --value 'a(u,v)' 1/6 [--tol 1e-12] -- COMMAND ...
      passes when COMMAND exits 0 and prints 'a(u,v) = X' with |X - 1/6| <= tol*max(1, |1/6|)
      (the expected value is a Python expression: exact fractions read best).
  check_output.py --error REGEX -- COMMAND ...
      passes when COMMAND exits non-zero and its output matches REGEX.
  check_output.py [--value ...] --match REGEX ... --no-match REGEX ... --count REGEX N ... -- COMMAND ...
      passes when COMMAND exits 0, its output matches every --match and no --no-match,
      has exactly N lines matching each --count REGEX (each repeatable), and, if given,
      --value holds.
"""
import argparse
import re
import subprocess
import sys
from math import *  # noqa: F401,F403  (pi, sqrt ... in expected values)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--value", nargs=2, metavar=("LABEL", "EXPECTED"))
    p.add_argument("--tol", type=float, default=1e-12)
    p.add_argument("--error")
    p.add_argument("--match", action="append", default=[])
    p.add_argument("--no-match", action="append", default=[])
    p.add_argument("--count", nargs=2, action="append", default=[], metavar=("REGEX", "N"))
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    # errors="replace": PETSc 3.18's -help prints -dm_plex_boundary_label's default from an
    # uninitialised buffer, so the output may hold any bytes (what is there depends on the
    # caller's stack); the checks read everything else.
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", timeout=300)
    print(r.stdout)
    if a.error is not None:
        if r.returncode == 0:
            sys.exit("FAIL: the command succeeded; expected an error matching " + a.error)
        if not re.search(a.error, r.stdout):
            sys.exit("FAIL: the error message does not match " + a.error)
        print("ok: exit code %d and the expected message" % r.returncode)
        return
    if r.returncode != 0:
        sys.exit("FAIL: exit code %d" % r.returncode)
    for pattern in a.match:
        if not re.search(pattern, r.stdout, re.M):
            sys.exit("FAIL: the output does not match " + pattern)
    for pattern in a.no_match:
        if re.search(pattern, r.stdout, re.M):
            sys.exit("FAIL: the output matches " + pattern)
    for pattern, n in a.count:
        found = len(re.findall(pattern, r.stdout, re.M))
        if found != int(n):
            sys.exit("FAIL: %d lines match %s, expected %s" % (found, pattern, n))
    if a.match or a.no_match:
        print("ok: the output matches the %d patterns and none of the %d excluded" % (len(a.match), len(a.no_match)))
    if a.value is None:
        return
    label, expected = a.value
    values = re.findall(re.escape(label) + r" = (\S+)", r.stdout)
    if not values:
        sys.exit("FAIL: no line '%s = ...'" % label)
    want = float(eval(expected))
    for v in values:  # every rank or every line must agree
        if abs(float(v) - want) > a.tol * max(1.0, abs(want)):
            sys.exit("FAIL: %s = %s, expected %s = %.17g" % (label, v, expected, want))
    print("ok: %s = %s, expected %s" % (label, values[0], expected))


if __name__ == "__main__":
    main()
