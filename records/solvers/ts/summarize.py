#!/usr/bin/env python3
"""Reads the logs of run_ex45.sh (PETSc's -log_view with -log_view_gpu_time) and writes
summary.csv, one row per run:

  config,run,steps,unknowns,step_s,ifunction_s,ijacobian_s,pcsetup_s,pcsetup_first_s,
  pcsetup_later_s,ksp_s,its_per_step,l2_error,commit,device

step_s: TSStep's time per step; ifunction_s, ijacobian_s: TSFunctionEval's and
TSJacobianEval's time per call; ksp_s: KSPSolve's per step; its_per_step: KSP iterations
over steps (-ksp_converged_reason); unknowns: the Jacobian's rows (-ts_view, check runs
only); pcsetup_s: PCSetUp's
total. For fem_gpu_pmg, pcsetup_first_s is the first setup's one-time part (the levels'
build, FEMGPUPMGLevels, and every refresh of the coarse matrix and GAMG, FEMGPUPMGCoarse
and PCSetUp_GAMG+) and pcsetup_later_s what is left per later step (the smoothers' setup
of each step); blank otherwise. l2_error: the last -ts_monitor_error line (check runs).
Also events.csv: each run's count, time and GPU time (log_view.gpu_seconds; blank without
-log_view_gpu_time) of the events that say where a step goes.

usage: summarize.py LOG_DIR
"""
import csv
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from log_view import events as log_events, read  # noqa: E402

EVENTS = ["TSStep", "TSFunctionEval", "TSJacobianEval", "SNESSolve", "KSPSolve", "PCSetUp", "PCApply", "MatMult", "PCSetUp_GAMG+",
          "FEMGPUSetUp", "FEMGPUMaps", "FEMGPUTune", "FEMGPUApply", "FEMGPUDiagonal", "FEMGPUPMGSetUp", "FEMGPUPMGLevels",
          "FEMGPUPMGCoarse", "FEMGPUTransfer", "FEMGPUAssembly", "DMPlexResidualFE", "DMPlexJacobianFE"]
# <config>[_cold_check|_check][<tag>]_<n>steps: run_ex45.sh's names; a tag (REFINE's _r<n>,
# TAG's) stays with the config, so that the rows of an A/B are told apart.
NAME = re.compile(r"ex45_3d_p2_(pmg_whole|jacobi_whole|jacobi|gamg)(?:_(cold_check|check))?((?:_[a-z0-9]+)*)_(\d+)steps\.log(\.gz)?$")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    folder = argv[1]
    device = commit = ""
    info = os.path.join(folder, "device.txt")
    if os.path.exists(info):
        lines = open(info).read().split("\n")
        device = lines[0].strip()
        commit = next((l.strip() for l in lines if re.fullmatch(r"[0-9a-f]{40}", l.strip())), "")
    rows, event_rows = [], []
    for path in sorted(glob.glob(os.path.join(folder, "ex45_*.log*"))):
        m = NAME.search(os.path.basename(path))
        if not m:
            continue
        config, run, steps = m.group(1) + m.group(3), m.group(2) or "long", int(m.group(4))
        text = read(path)
        ev = log_events(text, EVENTS)
        if "TSStep" not in ev:
            print("%s: no -log_view table (did not finish)" % os.path.basename(path))
            continue
        done = ev["TSStep"][0]
        its = [int(x) for x in re.findall(r"Linear solve converged due to \w+ iterations (\d+)", text)]
        errors = re.findall(r"L_2 Error: \[([-+0-9.eE]+)", text)
        rows_seen = [int(x) for x in re.findall(r"rows=(\d+)", text)]  # -ts_view of the check runs: the largest is the Jacobian
        t = lambda e: ev.get(e, (0, 0.0))[1]
        c = lambda e: ev.get(e, (0, 0.0))[0]
        first = later = ""
        if config.startswith("pmg_whole") and done > 1:
            one_time = t("FEMGPUPMGLevels") + t("FEMGPUPMGCoarse") + t("PCSetUp_GAMG+")
            first, later = "%.4g" % one_time, "%.4g" % ((t("PCSetUp") - one_time) / (done - 1))
        rows.append({
            "config": config, "run": run, "steps": done, "unknowns": max(rows_seen) if rows_seen else "",
            "step_s": "%.4g" % (t("TSStep") / done),
            "ifunction_s": "%.4g" % (t("TSFunctionEval") / max(c("TSFunctionEval"), 1)),
            "ijacobian_s": "%.4g" % (t("TSJacobianEval") / max(c("TSJacobianEval"), 1)),
            "pcsetup_s": "%.4g" % t("PCSetUp"), "pcsetup_first_s": first, "pcsetup_later_s": later,
            "ksp_s": "%.4g" % (t("KSPSolve") / done), "its_per_step": "%.1f" % (sum(its) / done) if its else "",
            "l2_error": errors[-1] if errors else "", "commit": commit, "device": device})
        event_rows += [{"log": os.path.basename(path), "event": e, "count": ev[e][0], "time_s": ev[e][1],
                        "gpu_s": "%.4g" % ev[e][2] if ev[e][2] is not None else ""} for e in EVENTS if e in ev]
    with open(os.path.join(folder, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["config"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(folder, "events.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["log", "event", "count", "time_s", "gpu_s"])
        w.writeheader()
        w.writerows(event_rows)
    for r in rows:
        print(",".join(str(v) for v in r.values()))


if __name__ == "__main__":
    main(sys.argv)
