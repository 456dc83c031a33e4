#!/usr/bin/env python3
"""One line per log of run_whole_solve.sh: CG iterations, L2 error, the example's stage
line (Residual, Jacobian/PC setup, KSP solve; each includes femgpu's setup and tuning
stages pushed inside it), 'to solution' (their sum: everything after the mesh), femgpu
setup and tuning, and the right-hand side's evaluation alone: femgpu's residual kernel
(FEMGPUApply in the Residual stage, upload and download included) or PETSc's
DMPlexResidualFE on the CPU.
Usage: summarize_whole_solve.py LOG..."""
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


def stage_events(text, stage):
    """The -log_view event lines of one stage, as a dict name -> seconds."""
    m = re.search(r"--- Event Stage \d+: %s\s*\n(.*?)(?=--- Event Stage|\n-{20,}|\Z)" % re.escape(stage), text, re.S)
    events = {}
    for line in (m.group(1) if m else "").splitlines():
        f = line.split()
        if len(f) > 3 and re.match(r"^[\d.]+(e[+-]\d+)?$", f[3]):
            events[f[0]] = events.get(f[0], 0.0) + float(f[3])
    return events


def main():
    head = ("run", "its", "L2 error", "residual", "Jac/PC", "KSP", "to solution", "femgpu", "tuning", "RHS eval")
    print("%-36s %5s %10s %9s %9s %9s %11s %9s %9s %9s" % head)
    for path in sys.argv[1:]:
        text = read_log(path)
        name = log_name(path)
        its, err = re.search(r"^KSP iterations (\d+)", text, re.M), re.search(r"^L2 error ([\d.eE+-]+)", text, re.M)
        st = re.search(r"^Stages: Residual ([\d.]+) s, Jacobian/PC setup ([\d.]+) s, KSP solve ([\d.]+) s, of these femgpu setup ([\d.]+) s \(tuning ([\d.]+) s\)", text, re.M)
        if not (its and err and st):
            print("%-36s did not finish" % name)
            continue
        r, j, k, f, t = (float(x) for x in st.groups())
        ev = stage_events(text, "Residual")
        rhs = ev.get("FEMGPUApply", 0.0) or ev.get("DMPlexResidualFE", 0.0)
        print("%-36s %5s %10s %9.3f %9.3f %9.3f %11.3f %9.3f %9.3f %9.4f" % (name, its.group(1), err.group(1), r, j, k, r + j + k, f, t, rhs))


if __name__ == "__main__":
    main()
