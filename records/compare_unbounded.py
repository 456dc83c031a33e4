#!/usr/bin/env python3
"""Compare a budgeted 70-case table with unbounded tunings of the same cases.

Takes: the budgeted table (collect_bench.py's CSV) and one or more folders of femgpu-bench
runs made with -tune_budget 0 -monitor (each run's CSV and its log; the log lists every timed
candidate with its median).
Writes (stdout): one markdown row per case whose budgeted tuning was cut short
(budget_spent), and a summary. Two ratios per case:
- "table / unbounded": the budgeted winner's time in the table's run over the unbounded
  winner's time in its own run (two runs, two processes, perhaps two GPUs);
- "same run": the budgeted winner's median as the unbounded run timed it, over the
  unbounded winner's median in that run (one process, one GPU); "=" where both runs
  picked the same schedule, "-" where the unbounded run did not time the budgeted winner.
A case is within 5% when the same-run ratio (else the table ratio) is at most 1.05.
Cases the unbounded runs did not finish are listed as missing.

Usage: compare_unbounded.py TABLE.csv UNBOUNDED_DIR [UNBOUNDED_DIR ...] [--csv OUT.csv]
(a case found in several folders is taken from the last one)
"""
import argparse
import csv
import glob
import gzip
import os
import re


def read_log(path):
    """A log's text, plain or gzipped (records/compress_logs.sh gzips logs over 16 KB)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return f.read()


CASE = re.compile(r"^(mass|laplace|helmholtz|elasticity|hyperelasticity)\s+(\d)\s+(\d)\s")
TIMED = re.compile(r"^    (.+?): ([\d.]+) ms \(")


def key(op, dim, degree):
    return (op, int(dim), int(degree))


def read_logs(folders):
    """{case: {schedule: median ms}}: a log's candidate lines come before their case's row."""
    timed = {}
    for path in [p for folder in folders for p in sorted(glob.glob(os.path.join(folder, "bench_*.log*")))]:
        lines = {}
        for line in read_log(path).splitlines():
            m = TIMED.match(line)
            if m:
                lines[m.group(1)] = float(m.group(2))
                continue
            m = CASE.match(line)
            if m:
                timed[key(*m.groups())] = lines
                lines = {}
    return timed


def read_rows(paths):
    rows = {}
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                rows[key(r["operator"], r["dim"], r["degree"])] = r
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("unbounded", nargs="+")
    ap.add_argument("--csv")
    a = ap.parse_args()
    table = read_rows([a.table])
    unbounded = read_rows([p for folder in a.unbounded for p in sorted(glob.glob(os.path.join(folder, "bench_*.csv")))])
    timed = read_logs(a.unbounded)
    out, missing = [], []
    print("| case | budgeted winner | unbounded winner | table / unbounded | same run | tune s (budgeted, unbounded) |")
    print("|---|---|---|---|---|---|")
    for k in sorted(table, key=lambda k: (k[0], k[1], k[2])):
        t = table[k]
        if float(t["budget_spent"]) == 0:
            continue  # the budget timed the whole plan: the unbounded tuner's winner by construction
        name = f"{k[0]} {k[1]}D P{k[2]}"
        if k not in unbounded:
            missing.append(name)
            continue
        u = unbounded[k]
        ratio = float(t["time_ms"]) / float(u["time_ms"])
        same = t["schedule"] == u["schedule"]
        medians = timed.get(k, {})
        if same:
            run, run_text = 1.0, "="
        elif t["schedule"] in medians and u["schedule"] in medians:
            run = medians[t["schedule"]] / medians[u["schedule"]]
            run_text = f"{run:.3f}"
        else:
            run, run_text = None, "-"
        judged = run if run is not None else ratio
        out.append({"operator": k[0], "dim": k[1], "degree": k[2], "budgeted_schedule": t["schedule"], "unbounded_schedule": u["schedule"],
                    "budgeted_ms": t["time_ms"], "unbounded_ms": u["time_ms"], "table_ratio": f"{ratio:.4f}",
                    "same_run_ratio": "" if run is None else f"{run:.4f}", "within_5pct": int(judged <= 1.05),
                    "budgeted_tune_seconds": t["tune_seconds"], "unbounded_tune_seconds": u["tune_seconds"]})
        print(f"| {name} | {t['schedule']} | {'same' if same else u['schedule']} | {ratio:.3f} | {run_text} | "
              f"{float(t['tune_seconds']):.1f}, {float(u['tune_seconds']):.0f} |")
    within = sum(r["within_5pct"] for r in out)
    print(f"\n{len(out)} cut-short cases compared: {within} within 5% of the unbounded winner, {len(out) - within} beyond.")
    if missing:
        print(f"Not compared (no unbounded row): {', '.join(missing)}.")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
            w.writeheader()
            w.writerows(out)


if __name__ == "__main__":
    main()
