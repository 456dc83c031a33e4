#!/usr/bin/env python3
"""Collect femgpu-bench runs into one table of the paper's 70 cases, and draw it.

Takes: femgpu-bench text outputs (the printed table) or the CSV files it writes (-csv; they
carry every column: the SpMV baseline, tune_seconds, commit; a column this script does not
know passes through to the outputs), in order; a later row for the
same (operator, dim, degree) replaces an earlier one (a re-tuned run). Optionally the JSON
files femgpu-bench wrote, for the tune_seconds of text runs.
Writes: <prefix>.json (array of objects), <prefix>.csv, <prefix>_summary.txt and, when
matplotlib is installed, a bar chart (<prefix>.png, .svg): measured GDoF/s per case with
its physical limit marked (runs with the physical bound), else GFLOP/s against the paper's
roofline as its Figure 4, marked at/above/below the paper.

Usage: collect_bench.py --device NAME --date YYYY-MM-DD --commit SHA --out PREFIX \
           [--json run.json ...] run1.txt run2.txt ...
"""
import argparse
import csv
import json
import re

ROW = re.compile(r"^(mass|laplace|helmholtz|elasticity|hyperelasticity)\s+(\d)\s+(\d)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)"
                 r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+|nan)\s+(\w+)\s+(.*)$")
# Since the physical bound: a "phys" column (physical_fraction) after the roofline's "frac".
ROW_PHYS = re.compile(r"^(mass|laplace|helmholtz|elasticity|hyperelasticity)\s+(\d)\s+(\d)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)"
                      r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+|nan)\s+(\w+)\s+(.*)$")
OPS = ["mass", "laplace", "helmholtz", "elasticity", "hyperelasticity"]
NUMBER = re.compile(r"[\d.]+|nan")


def split_tail(text):
    """The printed columns after "vs": the schedule, behind the numbers that later runs print
    first: none (before the SpMV baseline), "SpMV tune_s", or "SpMV MatMult tune_s" (since
    the baseline's kernel time, spmv_gdofs, and PETSc's MatMult, spmv_matmult_gdofs)."""
    tokens = text.split()
    n = 0
    while n < len(tokens) and NUMBER.fullmatch(tokens[n]):
        n += 1
    if n not in (2, 3):
        return {"schedule": text.strip()}
    value = [None if t == "nan" else float(t) for t in tokens[:n]]
    tail = {"schedule": " ".join(tokens[n:]), "spmv_gdofs": value[0], "tune_seconds": value[-1]}
    if n == 3:
        tail["spmv_matmult_gdofs"] = value[1]
    return tail


def read_rows(paths):
    rows = {}
    for path in paths:
        for line in open(path):
            m = ROW_PHYS.match(line.strip())
            g = list(m.groups()) if m else None
            if not m:
                m = ROW.match(line.strip())
                if not m:
                    continue
                g = list(m.groups())
                g.insert(8, None)  # no physical_fraction in runs before the physical bound
            op, dim, deg = g[0], int(g[1]), int(g[2])
            rows[(op, dim, deg)] = {
                "operator": op, "dim": dim, "degree": deg, "Q": int(g[3]), "time_ms": float(g[4]),
                "gflops": float(g[5]), "roofline_gflops": float(g[6]), "roofline_fraction": float(g[7]),
                "physical_fraction": None if g[8] is None else float(g[8]),
                "gdofs": float(g[9]), "paper_gdofs": None if g[10] == "nan" else float(g[10]),
                "vs_paper": g[11], "tune_seconds": None, "run": path.split("/")[-1]}
            rows[(op, dim, deg)].update(split_tail(g[12]))
    return rows


def number(text):
    try:
        return float(text) if text not in ("", "nan") else None
    except ValueError:
        return text


def read_csv_rows(path, rows):
    for r in csv.DictReader(open(path)):
        row = {k: number(v) if k not in ("operator", "physical_bound", "vs_paper", "schedule", "device", "commit") else v for k, v in r.items()}
        row["dim"], row["degree"] = int(row["dim"]), int(row["degree"])
        row["run"] = path.split("/")[-1]
        rows[(row["operator"], row["dim"], row["degree"])] = row


def add_tune_seconds(rows, json_paths):
    for path in json_paths:
        for r in json.load(open(path)):
            key = (r["operator"], r["dim"], r["degree"])
            if key in rows and abs(rows[key]["time_ms"] - r["time_ms"]) < 1e-3 * r["time_ms"] + 1e-4:
                rows[key]["tune_seconds"] = r["tune_seconds"]


def ordered(rows):
    return [rows[k] for k in sorted(rows, key=lambda k: (k[1], OPS.index(k[0]), k[2]))]


def summary(table, args):
    n = len(table)
    half = sum(r["roofline_fraction"] >= 0.5 for r in table)
    paper = sum(r["vs_paper"] in ("at", "above") for r in table)
    lines = [f"device: {args.device}; date: {args.date}; commit: {args.commit}; FP64",
             f"{half} of {n} cases at >= 50% of roofline",
             f"{paper} of {n} cases at or above the paper's GDoF/s (H200 NVL)"]
    phys = sorted(r["physical_fraction"] for r in table if r["physical_fraction"] is not None)
    if phys:
        median = phys[len(phys) // 2] if len(phys) % 2 else 0.5 * (phys[len(phys) // 2 - 1] + phys[len(phys) // 2])
        lines.append(f"physical_fraction (t_phys / t): median {median:.2f} over {len(phys)} cases, "
                     f"{sum(f >= 0.5 for f in phys)} at >= 0.5, {sum(f > 1 for f in phys)} above 1 (a bug)")
    spmv = [r for r in table if r.get("spmv_gdofs")]
    if spmv:
        lines.append(f"femgpu >= cuSPARSE SpMV (same operator assembled, same process) in {sum(r['gdofs'] >= r['spmv_gdofs'] for r in spmv)} "
                     f"of {len(spmv)} cases; below in: " + ", ".join(f"{r['operator']} {r['dim']}D P{r['degree']} ({r['gdofs'] / r['spmv_gdofs']:.2f}x)"
                                                          for r in spmv if r["gdofs"] < r["spmv_gdofs"]))
    both = sorted(r["spmv_gdofs"] / r["spmv_matmult_gdofs"] for r in spmv if r.get("spmv_matmult_gdofs"))
    if both:
        lines.append(f"cuSPARSE SpMV kernel (CUDA events) / PETSc MatMult (host clock) GDoF/s: median {both[len(both) // 2]:.2f}, "
                     f"{both[0]:.2f}-{both[-1]:.2f} over {len(both)} cases")
    high = [r for r in table if r["degree"] >= 3 and r.get("paper_gdofs")]
    if high:
        lines.append(f">= 2x the paper's GDoF/s in {sum(r['gdofs'] >= 2 * r['paper_gdofs'] for r in high)} of {len(high)} cases with P >= 3")
    tuned = [r["tune_seconds"] for r in table if r.get("tune_seconds") is not None]
    if tuned:
        lines.append(f"first tuning (empty cache): <= 10 s in {sum(t <= 10 for t in tuned)} of {len(tuned)}, <= 10.5 s in "
                     f"{sum(t <= 10.5 for t in tuned)}, longest {max(tuned):.1f} s")
    for dim in (2, 3):
        for op in OPS:
            cells = [r for r in table if r["operator"] == op and r["dim"] == dim]
            lines.append(f"{dim}D {op:16s} " + "  ".join(
                f"P{r['degree']}:{r['gdofs']:.1f}/{r['paper_gdofs']}({r['roofline_fraction']:.2f})" for r in cells))
    return "\n".join(lines) + "\n"


def plot(table, prefix, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("collect_bench: matplotlib not installed, no figure")
        return
    fig, axes = plt.subplots(2, 1, figsize=(16, 9))
    colors = {"above": "tab:green", "at": "tab:olive", "below": "tab:red"}
    physical = all(r["physical_fraction"] for r in table)
    for ax, dim in zip(axes, (2, 3)):
        cells = [r for r in table if r["dim"] == dim]
        x = range(len(cells))
        if physical:  # GDoF/s with the physical limit marked (GDoF/s at t_phys = measured / fraction)
            ax.bar(x, [r["gdofs"] for r in cells], color=[colors.get(r["vs_paper"], "tab:blue") for r in cells],
                   label="measured (green: at/above the paper's GDoF/s, red: below)")
            ax.scatter(list(x), [r["gdofs"] / r["physical_fraction"] for r in cells], marker="_", s=200, color="black",
                       label="physical limit (minimal DRAM traffic or FP64 peak)")
            with_spmv = [(i, r) for i, r in zip(x, cells) if r.get("spmv_gdofs")]
            if with_spmv:
                ax.scatter([i for i, _ in with_spmv], [r["spmv_gdofs"] for _, r in with_spmv], marker="x", color="tab:purple",
                           label="cuSPARSE SpMV of the assembled operator")
            ax.set_yscale("log")
            ax.set_ylabel("GDoF/s")
        else:
            ax.bar(x, [r["roofline_gflops"] for r in cells], color="lightgray", label="roofline (paper's H200 constants)")
            ax.bar(x, [r["gflops"] for r in cells], color=[colors.get(r["vs_paper"], "tab:blue") for r in cells],
                   label="measured (green: at/above the paper's GDoF/s, red: below)")
            ax.set_ylabel("GFLOP/s")
        ax.set_xticks(list(x))
        ax.set_xticklabels([f"{r['operator'][:5]} P{r['degree']}" for r in cells], rotation=90, fontsize=7)
        ax.set_title(f"{dim}D, FP64, {args.device} ({args.date}, {args.commit})")
        ax.legend(fontsize=8)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{prefix}.{ext}", dpi=110)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("runs", nargs="+")
    p.add_argument("--json", nargs="*", default=[])
    p.add_argument("--device", required=True)
    p.add_argument("--date", required=True)
    p.add_argument("--commit", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    rows = read_rows([r for r in args.runs if not r.endswith(".csv")])
    for path in (r for r in args.runs if r.endswith(".csv")):
        read_csv_rows(path, rows)
    add_tune_seconds(rows, args.json)
    table = ordered(rows)
    for r in table:
        r["device"] = args.device
    json.dump(table, open(args.out + ".json", "w"), indent=1)
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
        w.writeheader()
        w.writerows(table)
    text = summary(table, args)
    open(args.out + "_summary.txt", "w").write(text)
    print(text, end="")
    plot(table, args.out, args)


if __name__ == "__main__":
    main()
