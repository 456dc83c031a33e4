#!/usr/bin/env python3
"""Reads the logs of run_ex13.sh (ex13 and, with PROGRAM=ex17, ex17: PETSc's -log_view with
-log_view_gpu_time) and writes
summary.csv with one row per run:

  program,dim,degree,unknowns,config,snes_s,pcsetup_s,ksp_s,its,l2_error,matmult_ms,
  bench_gdofs,commit,device

plus events.csv: every run's time (max over ranks, s), GPU time (gpu_s: log_view.gpu_seconds,
blank without -log_view_gpu_time) and count of the events that say
where the solve goes (SNESSolve, SNESFunctionEval, SNESJacobianEval, PCSetUp, KSPSolve,
MatMult, PCApply, the FEMGPU* events). matmult_ms is FEMGPUApply's time per call (one fem_gpu
apply on the device; with fem_gpu_pmg the levels' applies are counted too; PETSc's MatMult
event also counts thousands of small DMPlex products of the error computation); bench_gdofs is femgpu-bench's GDoF/s for the program's operator (ex13: Laplace,
ex17: elasticity) at that dimension and degree, read from bench_*.csv beside the logs when present.
ex17 prints no L2 error (l2_error empty); its unknowns are the outer operator's rows in -snes_view.

libCEED's PETSc examples (run_ceed.sh: ceed_bp3_p2.log, ceed_bp4_p2.log, ceed_mg_p2.log, ...)
give rows too, after ex13's: program ceed-bps (config ceed_bps for BP3, ceed_bps_bp4 for
BP4) or ceed-multigrid (config ceed_mg), with run_ceed.sh's TAG appended to the config
(but run_record.sh's _ex13 and _ex17, which name the mesh a BP3 or BP4 run shares).
Their times are the event times of the timed solve (-log_view's "Solve Stage"), which follows
an untimed one-iteration solve that set up the preconditioner and JiT-compiled the kernels:
ksp_s is that stage's KSPSolve (the printed "CG Solve Time" where the event table is
missing), so it has no PCSetUp in it, unlike ex13's; pcsetup_s is PCSetUp over all stages
(the warm-up's, NVRTC compiles included; near zero for bps's Jacobi, whose diagonal PETSc
takes at the first PCApply, in the warm-up: see NAME/main's PCApply); matmult_ms is the stage's MatMult per call (bps:
the libCEED operator with PETSc's local-global scatters; multigrid: every level's, and the
coarse aijcusparse matrix's); unknowns are the printed global nodes times DoF per node; its,
l2_error as printed; snes_s and bench_gdofs stay empty. events.csv gets their Solve Stage
events under the run's name and their Main Stage events (setup, warm-up) under NAME/main.

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
          "FEMGPUPMGLevels", "FEMGPUPMGCoarse", "FEMGPUTransfer", "FEMGPUAssembly", "DMPlexResidualFE", "DMPlexJacobianFE",
          "FEMGPUPlexMaps", "FEMGPUSectionSF", "FEMGPUBdValues", "FEMGPUDMCopy", "SFSetUp", "MatSetPreallCOO"]
NAME = re.compile(r"(ex1[37])_([23])d_(p\d)_(.+)\.log(\.gz)?$")
CEED_NAME = re.compile(r"ceed_(bp\d+|mg)_(p\d+)(.*?)\.log(\.gz)?$")
CEED_EVENTS = EVENTS + ["KSPSetUp", "MatMultAdd", "MatMultTranspose", "AssembleMatrix"]


def one(pattern, text, cast=str):
    m = re.search(pattern, text)
    return cast(m.group(1)) if m else ""


def stage_events(text, names):
    """{stage: {event: (count, max time s, GPU time s or None)}}: -log_view's event table,
    stage by stage (the first section of each stage name: the object table repeats them)."""
    out = {}
    parts = re.split(r"^--- Event Stage \d+: (.*)$", text, flags=re.M)
    for stage, body in zip(parts[1::2], parts[2::2]):
        out.setdefault(stage.strip(), log_events(body, names))
    return out


def ceed_row(path, text, table, device):
    """The summary row of one libCEED example log (bps or multigrid); its events into table."""
    m = CEED_NAME.search(os.path.basename(path))
    stages = stage_events(text, CEED_EVENTS)
    solve, main = stages.get("Solve Stage", {}), stages.get("Main Stage", {})
    nodes = one(r"(?m)^ {4}Global [Nn]odes\s*:\s*(\d+)", text, int)
    ncomp = one(r"DoF per node\s*:\s*(\d+)", text, int)
    its = re.findall(r"Total KSP Iterations\s*:\s*(\d+)", text)
    ksp = solve.get("KSPSolve", ("", ""))[1]
    if ksp == "":
        ksp = one(r"CG Solve Time\s*:\s*([0-9.eE+-]+)", text)
    setups = [st["PCSetUp"][1] for st in stages.values() if "PCSetUp" in st]
    mm = solve.get("MatMult", (0, 0.0))
    bp, tag = m.group(1), m.group(3)
    if tag in ("_ex13", "_ex17"):  # run_record.sh's: which program's mesh; the BP says it already
        tag = ""
    config = ("ceed_mg" if bp == "mg" else "ceed_bps" if bp == "bp3" else f"ceed_bps_{bp}") + tag
    run = os.path.basename(path).split(".log")[0]
    for name_, st in ((run, solve), (run + "/main", main)):
        for name in CEED_EVENTS:
            if name in st:
                table.append({"run": name_, "event": name, "count": st[name][0], "time_s": st[name][1],
                              "gpu_s": "%.4g" % st[name][2] if st[name][2] is not None else ""})
    return {
        "program": "ceed-multigrid" if bp == "mg" else "ceed-bps", "dim": 3, "degree": int(m.group(2)[1:]),
        "unknowns": nodes * ncomp if nodes != "" and ncomp != "" else "", "config": config, "snes_s": "",
        "pcsetup_s": float("%.5g" % sum(setups)) if setups else "", "ksp_s": ksp, "its": its[-1] if its else "",
        "l2_error": one(r"L2 Error\s*:\s*([0-9.eE+-]+)", text), "matmult_ms": f"{1e3 * mm[1] / mm[0]:.4f}" if mm[0] else "",
        "bench_gdofs": "", "commit": os.environ.get("FEMGPU_COMMIT", ""), "device": device}


# Each program's operator in femgpu-bench's rows.
BENCH_OPERATOR = {"ex13": "laplace", "ex17": "elasticity"}


def bench_rates(files):
    """{(operator, dim, degree): GDoF/s} of femgpu-bench's rows."""
    rates = {}
    for path in files:
        with open(path) as f:
            for row in csv.DictReader(f):
                if row.get("gdofs"):
                    rates[(row.get("operator"), int(row["dim"]), int(row["degree"]))] = float(row["gdofs"])
    return rates


def unknowns(program, text):
    """ex13 prints them with its L2 error; otherwise the last matrix of -snes_view (the
    outer solve's operator, printed after the preconditioner's levels)."""
    if program == "ex13":
        return one(r"N: (\d+) L2 error", text)
    sizes = re.findall(r"rows=(\d+), cols=\1\b", text)
    return sizes[-1] if sizes else ""


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    logs = sorted(glob.glob(os.path.join(argv[1], "ex1[37]_[23]d_*.log")) + glob.glob(os.path.join(argv[1], "ex1[37]_[23]d_*.log.gz")))
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
        program, dim, degree = m.group(1), int(m.group(2)), int(m.group(3)[1:])
        mm = ev.get("FEMGPUApply", (0, 0.0))
        rows.append({
            "program": program, "dim": dim, "degree": degree, "unknowns": unknowns(program, text),
            "config": m.group(4), "snes_s": ev.get("SNESSolve", ("", ""))[1], "pcsetup_s": ev.get("PCSetUp", ("", ""))[1],
            "ksp_s": ev.get("KSPSolve", ("", ""))[1], "its": one(r"Linear solve converged due to \S+ iterations (\d+)", text),
            "l2_error": one(r"L2 error: ([0-9.eE+-]+)", text), "matmult_ms": f"{1e3 * mm[1] / mm[0]:.4f}" if mm[0] else "",
            "bench_gdofs": rates.get((BENCH_OPERATOR[program], dim, degree), ""), "commit": os.environ.get("FEMGPU_COMMIT", ""), "device": device})
        for name in EVENTS:
            if name in ev:
                table.append({"run": os.path.basename(path).split(".log")[0], "event": name, "count": ev[name][0], "time_s": ev[name][1],
                              "gpu_s": "%.4g" % ev[name][2] if ev[name][2] is not None else ""})
    ceed_logs = sorted(glob.glob(os.path.join(argv[1], "ceed_*.log")) + glob.glob(os.path.join(argv[1], "ceed_*.log.gz")))
    for path in ceed_logs:
        if CEED_NAME.search(os.path.basename(path)):
            rows.append(ceed_row(path, read(path), table, device))
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
