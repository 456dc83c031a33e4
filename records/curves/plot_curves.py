#!/usr/bin/env python3
"""GDoF/s against DOFs, femgpu beside the SpMV baseline, from femgpu-bench CSV files.

Takes: the CSV files femgpu-bench wrote (-csv) for the curve runs (README.md), or folders
holding them (searched recursively, e.g. the unpacked results.tgz of every lane); a row
per (operator, dim, degree, mesh). A later file's row for the same point replaces an
earlier one.
Writes: PREFIX.md, a markdown table per (operator, dim, degree), in DOF order: DOFs,
femgpu's time and GDoF/s, cuSPARSE's SpMV kernel GDoF/s (spmv_gdofs, CUDA events like
femgpu's), PETSc's MatMult GDoF/s (spmv_matmult_gdofs, host clock), femgpu / SpMV,
whether the baseline ran on the same mesh (spmv_dofs = dofs_out; the curves raise
-spmv_max_cell_entries so that it does), the physical fraction, the first tuning's
seconds, the winning schedule and the commit; and, when matplotlib is installed, PREFIX.png
and PREFIX.svg: one panel per dimension, log-log, a colour per degree, femgpu solid,
SpMV dashed, MatMult dotted.
Does not: average repeated runs, or plot a baseline measured on another mesh (it is in
the table, marked).

Usage: plot_curves.py --out PREFIX [--title TEXT] CSV_OR_FOLDER...
"""
import argparse
import csv
import os
import sys


def csv_paths(inputs):
    for path in inputs:
        if os.path.isdir(path):
            for root, _, files in sorted(os.walk(path)):
                yield from (os.path.join(root, f) for f in sorted(files) if f.endswith(".csv"))
        else:
            yield path


def number(text):
    return float(text) if text not in ("", "nan", "null", None) else None


def read_points(paths):
    points = {}
    for path in paths:
        for r in csv.DictReader(open(path)):
            p = {"operator": r["operator"], "dim": int(r["dim"]), "degree": int(r["degree"]), "dofs": int(r["dofs_out"]),
                 "time_ms": number(r["time_ms"]), "gdofs": number(r["gdofs"]), "spmv_gdofs": number(r.get("spmv_gdofs")),
                 "spmv_matmult_gdofs": number(r.get("spmv_matmult_gdofs")), "spmv_dofs": number(r.get("spmv_dofs")), "file": os.path.basename(path),
                 "physical_fraction": number(r.get("physical_fraction")), "tune_seconds": number(r.get("tune_seconds")),
                 "schedule": r.get("schedule", ""), "commit": r.get("commit", "")}
            points[(p["operator"], p["dim"], p["degree"], p["dofs"])] = p
    return [points[k] for k in sorted(points)]


def same_mesh(p):
    return p["spmv_dofs"] is not None and int(p["spmv_dofs"]) == p["dofs"]


def cell(value, form):
    return "" if value is None else format(value, form)


def table(points):
    lines = []
    groups = sorted({(p["operator"], p["dim"], p["degree"]) for p in points})
    for op, dim, k in groups:
        lines += [f"### {op} {dim}D P{k}", "",
                  "| DOFs | femgpu ms | femgpu GDoF/s | SpMV GDoF/s | MatMult GDoF/s | femgpu / SpMV | SpMV mesh | physical fraction | tune s | schedule | commit |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for p in (p for p in points if (p["operator"], p["dim"], p["degree"]) == (op, dim, k)):
            ratio = p["gdofs"] / p["spmv_gdofs"] if p["spmv_gdofs"] else None
            mesh = "same" if same_mesh(p) else ("" if p["spmv_dofs"] is None else f"other ({int(p['spmv_dofs']):,} DOFs)")
            lines.append(f"| {p['dofs']:,} | {cell(p['time_ms'], '.4g')} | {cell(p['gdofs'], '.2f')} | {cell(p['spmv_gdofs'], '.2f')} | "
                         f"{cell(p['spmv_matmult_gdofs'], '.2f')} | {cell(ratio, '.2f')} | {mesh} | {cell(p['physical_fraction'], '.2f')} | "
                         f"{cell(p['tune_seconds'], '.1f')} | {p['schedule']} | {p['commit']} |")
        lines.append("")
    return "\n".join(lines)


def plot(points, prefix, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_curves: matplotlib not installed, the table only", file=sys.stderr)
        return
    dims = sorted({p["dim"] for p in points})
    fig, axes = plt.subplots(1, len(dims), figsize=(7 * len(dims), 5), squeeze=False)
    for ax, dim in zip(axes[0], dims):
        groups = sorted({(p["operator"], p["degree"]) for p in points if p["dim"] == dim})
        for i, (op, k) in enumerate(groups):
            color = f"C{i}"
            curve = [p for p in points if (p["operator"], p["dim"], p["degree"]) == (op, dim, k)]
            ax.plot([p["dofs"] for p in curve], [p["gdofs"] for p in curve], "o-", color=color, label=f"{op} P{k} femgpu")
            base = [p for p in curve if same_mesh(p)]
            if any(p["spmv_gdofs"] for p in base):
                ax.plot([p["dofs"] for p in base], [p["spmv_gdofs"] for p in base], "s--", color=color, label=f"P{k} cuSPARSE SpMV")
            if any(p["spmv_matmult_gdofs"] for p in base):
                ax.plot([p["dofs"] for p in base], [p["spmv_matmult_gdofs"] for p in base], "x:", color=color, label=f"P{k} PETSc MatMult")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("DOFs")
        ax.set_ylabel("GDoF/s (output DOFs per second)")
        ax.set_title(f"{dim}D, FP64" + (f", {title}" if title else ""))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{prefix}.{ext}", dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    points = read_points(csv_paths(args.inputs))
    if not points:
        sys.exit("plot_curves: no rows in " + " ".join(args.inputs))
    text = table(points)
    open(args.out + ".md", "w").write(text)
    print(text, end="")
    plot(points, args.out, args.title)


if __name__ == "__main__":
    main()
