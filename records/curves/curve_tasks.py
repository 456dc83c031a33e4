#!/usr/bin/env python3
"""The femgpu-bench runs of the GDoF/s-against-DOFs curves (README.md), as device tasks.

Takes: nothing (the points are fixed below), or --lanes N (default 4).
Prints: a table of the points (dimension, degree, intervals per side, DOFs, cell-matrix
entries, CSR nonzeros) and one line per lane: the space-separated task list that
scripts/device-lanes.sh takes as that lane's argument.

Each point is one femgpu-bench run of Laplace at one degree and one mesh:
    bench:laplace:DIM:K:K:K:-nDIM,N,-spmv_max_cell_entries,1e10
(device-tasks.sh's bench task; commas stand for spaces in its extra options, because
device-lanes.sh splits a lane at spaces). The cap of 1e10 cell-matrix entries is above
every point's, so the SpMV baseline runs on the same mesh as femgpu.

Meshes: 2D Pk on n x n squares split in 2 triangles has (k n + 1)^2 DOFs and 2 n^2 cells;
3D Pk on n^3 cubes split in 6 tetrahedra has (k n + 1)^3 DOFs and 6 n^3 cells. The
targets are 6 DOF counts log-spaced from 1e5 to 3e7. The baseline's cell matrices must
stay below 2^31 entries: the cell-matrix kernel stores entry `local` of cell `cell` at
g_out[cell * N_ENTRIES + local] in int arithmetic (src/kernel/build_diagonal.cpp), and the
CSR's 32-bit offsets need fewer nonzeros than that anyway (lattice_csr refuses more). That
caps the largest 3D points below 3e7 DOFs: P1 at n = 281 (22 million DOFs), P2 at n = 152
(28 million), P4 at n = 66 (19 million). Every point fits an H200's 141 GB: the largest
baseline holds about 17 GB of cell matrices and a CSR matrix of up to 17 GB on the device.

Lanes are balanced by a guessed cost per run (COST_* below: tuning and start-up, plus the
host's assembly of the baseline per cell-matrix entry), longest first onto the lane with
the least so far; replace the guesses with the measured times once a run has been made.
"""
import argparse
import math

TARGETS = [1e5 * (300 ** (i / 5)) for i in range(6)]  # 1e5 ... 3e7
DEGREES = (1, 2, 4)
# Nonzeros per cell-matrix entry of the assembled Laplace matrix, measured with lattice_csr
# on lattice meshes of about 1e7-1e8 entries (they fall slowly with the mesh size).
NONZEROS_PER_ENTRY = {(2, 1): 0.389, (2, 2): 0.639, (2, 4): 0.836, (3, 1): 0.158, (3, 2): 0.393, (3, 4): 0.664}
MAX_ENTRIES = 2**31 - 1  # the cell-matrix kernel's int index (see above)
COST_RUN_SECONDS = 25.0  # tuning within the 10 s budget, compiles, start-up, verification
COST_SECONDS_PER_ENTRY = 1.5e-8  # cell matrices, CSR, MatConvert and upload of the baseline


def basis(dim, k):
    return math.comb(k + dim, dim)


def point(dim, k, n):
    cells = (2 if dim == 2 else 6) * n**dim
    entries = cells * basis(dim, k) ** 2
    return {"dim": dim, "degree": k, "n": n, "dofs": (k * n + 1) ** dim, "entries": entries,
            "nonzeros": int(NONZEROS_PER_ENTRY[(dim, k)] * entries)}


def intervals(dim, k, dofs):
    """The mesh whose DOF count is nearest `dofs`, within the cell-matrix limit."""
    n = max(1, round((dofs ** (1 / dim) - 1) / k))
    while point(dim, k, n)["entries"] > MAX_ENTRIES:
        n -= 1
    return n


def points():
    out = []
    for dim in (2, 3):
        for k in DEGREES:
            ns = sorted({intervals(dim, k, d) for d in TARGETS})
            out += [point(dim, k, n) for n in ns]
    return out


def task(p):
    d, k = p["dim"], p["degree"]
    return f"bench:laplace:{d}:{k}:{k}:{k}:-n{d},{p['n']},-spmv_max_cell_entries,1e10"


def cost(p):
    return COST_RUN_SECONDS + COST_SECONDS_PER_ENTRY * p["entries"]


def lanes(pts, count):
    """Longest first onto the least loaded lane."""
    loads = [[0.0, []] for _ in range(count)]
    for p in sorted(pts, key=cost, reverse=True):
        lane = min(loads, key=lambda l: l[0])
        lane[0] += cost(p)
        lane[1].append(p)
    return loads


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lanes", type=int, default=4)
    args = parser.parse_args()
    pts = points()
    print("| dim | degree | n | DOFs | cell-matrix entries | nonzeros (est.) |")
    print("|---|---|---|---|---|---|")
    for p in pts:
        print(f"| {p['dim']} | P{p['degree']} | {p['n']} | {p['dofs']:.3g} | {p['entries']:.3g} | {p['nonzeros']:.3g} |")
    print()
    for i, (load, members) in enumerate(lanes(pts, args.lanes)):
        print(f"# lane {i}: {len(members)} runs, about {load:.0f} s (guessed)")
        print(" ".join(task(p) for p in members))


if __name__ == "__main__":
    main()
