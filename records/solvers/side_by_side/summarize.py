#!/usr/bin/env python3
"""Reads the logs of run_ex13.sh (PETSc's -log_view with -log_view_gpu_time) and writes
summary.csv with one row per run:

  program,dim,degree,unknowns,config,snes_s,pcsetup_s,ksp_s,its,l2_error,matmult_ms,
  bench_gdofs,commit,device

plus events.csv: every run's time (max over ranks, s), GPU time (gpu_s: log_view.gpu_seconds,
blank without -log_view_gpu_time) and count of the events that say
where the solve goes (SNESSolve, SNESFunctionEval, SNESJacobianEval, PCSetUp, KSPSolve,
MatMult, PCApply, the FEMGPU* events). matmult_ms is FEMGPUApply's time per call (one fem_gpu
apply on the device; with fem_gpu_pmg the levels' applies are counted too; PETSc's MatMult
event also counts thousands of small DMPlex products of the error computation); bench_gdofs is femgpu-bench's GDoF/s for Laplace 3D at that
degree, read from bench_*.csv beside the logs when present.

usage: summarize.py LOG_DIR [BENCH_CSV ...]
"""
import csv
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from log_view import events as log_events, read  # noqa: E402

EVENTS = ["SNESSolve", "SNESFunctionEval", "SNESJacobianEval", "PCSetUp", "KSPSolve", "MatMult", "PCApply", "MatGetDiagonal",
          "FEMGPUSetUp", "FEMGPUMaps", "FEMGPUTune", "FEMGPUSymmetry", "FEMGPUApply", "FEMGPUDiagonal", "FEMGPUPMGSetUp",
          "FEMGPUPMGLevels", "FEMGPUPMGCoarse", "FEMGPUTransfer", "FEMGPUAssembly", "DMPlexResidualFE", "DMPlexJacobianFE"]
NAME = re.compile(r"ex13_3d_(p\d)_(.+)\.log(\.gz)?$")


def one(pattern, text, cast=str):
    m = re.search(pattern, text)
    return cast(m.group(1)) if m else ""


def bench_rates(files):
    """{degree: GDoF/s} of femgpu-bench's Laplace 3D rows."""
    rates = {}
    for path in files:
        with open(path) as f:
            for row in csv.DictReader(f):
                if row.get("operator") == "laplace" and row.get("dim") == "3" and row.get("gdofs"):
                    rates[int(row["degree"])] = float(row["gdofs"])
    return rates


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    logs = sorted(glob.glob(os.path.join(argv[1], "ex13_3d_*.log")) + glob.glob(os.path.join(argv[1], "ex13_3d_*.log.gz")))
    rates = bench_rates(argv[2:])
    device = ""
    dev_file = next((f for f in (os.path.join(argv[1], "device.txt"), os.path.join(argv[1], "..", "device.txt")) if os.path.exists(f)), "")
    if dev_file:
        device = open(dev_file).readline().split(",")[0].strip()
    rows, table = [], []
    for path in logs:
        m = NAME.search(os.path.basename(path))
        if not m:
            continue
        text = read(path)
        ev = log_events(text, EVENTS)
        degree = int(m.group(1)[1:])
        mm = ev.get("FEMGPUApply", (0, 0.0))
        rows.append({
            "program": "ex13", "dim": 3, "degree": degree, "unknowns": one(r"N: (\d+) L2 error", text),
            "config": m.group(2), "snes_s": ev.get("SNESSolve", ("", ""))[1], "pcsetup_s": ev.get("PCSetUp", ("", ""))[1],
            "ksp_s": ev.get("KSPSolve", ("", ""))[1], "its": one(r"Linear solve converged due to \S+ iterations (\d+)", text),
            "l2_error": one(r"L2 error: ([0-9.eE+-]+)", text), "matmult_ms": f"{1e3 * mm[1] / mm[0]:.4f}" if mm[0] else "",
            "bench_gdofs": rates.get(degree, ""), "commit": os.environ.get("FEMGPU_COMMIT", ""), "device": device})
        for name in EVENTS:
            if name in ev:
                table.append({"run": os.path.basename(path).split(".log")[0], "event": name, "count": ev[name][0], "time_s": ev[name][1],
                              "gpu_s": "%.4g" % ev[name][2] if ev[name][2] is not None else ""})
    with open(os.path.join(argv[1], "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["program"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(argv[1], "events.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["run", "event", "count", "time_s", "gpu_s"])
        w.writeheader()
        w.writerows(table)
    for r in rows:
        print(f"{r['config']:28s} P{r['degree']} snes {r['snes_s']} pcsetup {r['pcsetup_s']} ksp {r['ksp_s']} its {r['its']} matmult_ms {r['matmult_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
