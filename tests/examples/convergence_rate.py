#!/usr/bin/env python3
"""Checks the rate at which an example's L2 error falls under mesh refinement, for ctest.

  convergence_rate.py --dim 2 --faces 2,4,8 --expected 3 [--slack 0.2] -- COMMAND ...

Runs COMMAND -dm_plex_box_faces n,n(,n) for each n, reads 'L2 error E', fits
log E = log C - rate log n by least squares, and passes when |rate - expected| <= slack.
"""
import argparse
import math
import re
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--faces", required=True)
    p.add_argument("--expected", type=float, required=True)
    p.add_argument("--slack", type=float, default=0.2)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    ns = [int(n) for n in a.faces.split(",")]
    errors = []
    for n in ns:
        full = command + ["-dm_plex_dim", str(a.dim), "-dm_plex_box_faces", ",".join([str(n)] * a.dim)]
        r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        found = re.findall(r"L2 error (\S+)", r.stdout)
        if r.returncode != 0 or not found:
            print("$ " + " ".join(full) + "\n" + r.stdout)
            sys.exit("FAIL: exit code %d, %d error lines" % (r.returncode, len(found)))
        errors.append(float(found[-1]))
        print("h = 1/%-3d L2 error %.4e%s" % (n, errors[-1], "" if len(errors) == 1 else
              "  rate %.2f" % (math.log(errors[-2] / errors[-1]) / math.log(ns[len(errors) - 1] / ns[len(errors) - 2]))))
    x = [math.log(n) for n in ns]
    y = [math.log(e) for e in errors]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    rate = -sum((xi - mx) * (yi - my) for xi, yi in zip(x, y)) / sum((xi - mx) ** 2 for xi in x)
    print("fitted rate %.3f, expected %.1f +- %.1f" % (rate, a.expected, a.slack))
    if abs(rate - a.expected) > a.slack:
        sys.exit("FAIL: rate %.3f" % rate)
    print("ok")


if __name__ == "__main__":
    main()
