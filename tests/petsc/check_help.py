#!/usr/bin/env python3
"""The options a fem_gpu Mat lists under -help: with --docs, the same set as docs/petsc.md
documents (no option a user cannot discover, none documented that does not exist); with
--at-most N, at most N distinct ones (the research knobs live in the tuning plan); with
--require OPT, OPT among them. Counted from the command's real -help output.

usage: check_help.py [--docs DOCS.md] [--at-most N] [--require OPT]... -- COMMAND... (run with -help appended)
Form constants (-mat_fem_gpu_constant_<name>) depend on the form: left out of the
comparison with the docs, counted as one option by --at-most.
"""
import re
import subprocess
import sys


def options(text):
    return {o for o in re.findall(r"-mat_fem_gpu_[a-z0-9_]+", text) if not o.startswith("-mat_fem_gpu_constant_")}


def arguments(argv):
    split = argv.index("--")
    docs, at_most, required, i = None, None, [], 0
    while i < split:
        flag, value = argv[i], argv[i + 1]
        if flag == "--docs":
            docs = value
        elif flag == "--at-most":
            at_most = int(value)
        elif flag == "--require":
            required.append(value)
        else:
            raise SystemExit(f"unknown argument {flag}")
        i += 2
    return docs, at_most, required, argv[split + 1:]


def main():
    docs, at_most, required, command = arguments(sys.argv[1:])
    run = subprocess.run(command + ["-help"], capture_output=True)
    # errors="replace": PETSc 3.18 prints -dm_plex_boundary_label's default from uninitialized memory
    out = (run.stdout + run.stderr).decode("utf-8", errors="replace")
    listed = options(out)
    if run.returncode != 0 or not listed:
        print(f"the command failed (rc {run.returncode}) or listed no -mat_fem_gpu_ option")
        return 1
    bad = 0
    if docs is not None:
        documented = options(open(docs).read())
        for o in sorted(documented - listed):
            print(f"documented but not in -help: {o}")
            bad += 1
        for o in sorted(listed - documented):
            print(f"in -help but not documented: {o}")
            bad += 1
        print(f"{len(listed)} options in -help, {len(documented)} documented, {len(documented ^ listed)} differ")
    count = len(listed) + (1 if "-mat_fem_gpu_constant_" in out else 0)
    if at_most is not None:
        print(f"{count} distinct -mat_fem_gpu_ options in -help (at most {at_most}): {' '.join(sorted(listed))}")
        bad += count > at_most
    for o in required:
        if o not in listed:
            print(f"-help does not list {o}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
