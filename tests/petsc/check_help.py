#!/usr/bin/env python3
"""The options a fem_gpu Mat lists under -help and the options docs/petsc.md documents
are the same set: no option a user cannot discover, none documented that does not exist.

usage: check_help.py DOCS.md -- COMMAND... (run with -help appended)
Form constants (-mat_fem_gpu_constant_<name>) depend on the form and are left out.
"""
import re
import subprocess
import sys


def options(text):
    return {o for o in re.findall(r"-mat_fem_gpu_[a-z0-9_]+", text) if not o.startswith("-mat_fem_gpu_constant_")}


def main():
    split = sys.argv.index("--")
    docs = open(sys.argv[1]).read()
    run = subprocess.run(sys.argv[split + 1:] + ["-help"], capture_output=True)
    # errors="replace": PETSc 3.18 prints -dm_plex_boundary_label's default from uninitialized memory
    out = (run.stdout + run.stderr).decode("utf-8", errors="replace")
    listed = options(out)
    documented = options(docs)
    if run.returncode != 0 or not listed:
        print(f"the command failed (rc {run.returncode}) or listed no -mat_fem_gpu_ option")
        return 1
    bad = 0
    for o in sorted(documented - listed):
        print(f"documented but not in -help: {o}")
        bad += 1
    for o in sorted(listed - documented):
        print(f"in -help but not documented: {o}")
        bad += 1
    print(f"{len(listed)} options in -help, {len(documented)} documented, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
