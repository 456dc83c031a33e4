#!/usr/bin/env python3
"""Where sum factorisation on simplices would cut a kernel's flops: an offline count.

Our kernels contract each evaluation row (a function's component, or one of its
derivatives) with dense tables: 2 n Q flops a row and cell, for n DOFs of the element and Q
quadrature points, and as many again for each test row. Sum factorisation on a simplex
works in collapsed coordinates with a warped-product basis (Dubiner's, or Bernstein's),
which factors over the three (two) directions on a tensor (collapsed Gauss-Jacobi) rule of
q points a direction, q = ceil((degree + 1) / 2) for the rule's degree. Counted here per
cell, as flops (a multiply-add is 2):

- a value or reference-derivative row, evaluated or integrated:
    2D: 2 q n + 2 q^2 (P + 1)
    3D: 2 q n + 2 q^2 (P + 1)(P + 2) / 2 + 2 q^3 (P + 1)
  (stage by stage over the triangular index sets; a derivative row swaps one 1D table for
  its derivative, so it costs as much as a value row);
- the change of basis of each function's component in and of each test component out: our
  DOFs are Lagrange coefficients (PETSc's layout), so a dense n x n matrix, 2 n^2 each;
- the chain rule from collapsed to reference derivatives: 2 d^2 a point for each gradient in
  and each gradient out;
- the pointwise program at each of the q^d points (the IR's pointwise_ops_per_point).

The dense count is the IR's own (`femgpu-form`'s flops_per_cell); its contractions are
2 n Q (sum of N_deriv + N_eval). Where the form's rule is already a collapsed one (Q = q^d)
the two kernels use the same points; where it is a symmetric rule (fewer points), sum
factorisation would also pay the pointwise program at the extra points. Counts only: no
memory traffic, registers or tensor cores; an upper bound for sum factorisation's
contractions (rows of one function share no stage here).

Usage: sum_factorisation_flops.py FEMGPU_FORM FORMS_DIR   (the paper's 70 cases, markdown)
       sum_factorisation_flops.py --self-test             (hand counts; needs nothing)
"""
import json
import math
import subprocess
import sys

CASES = [(op, 2, p) for op in ("mass", "laplace", "helmholtz", "elasticity", "hyperelasticity") for p in range(1, 9)] + \
        [(op, 3, p) for op in ("mass", "laplace", "helmholtz", "elasticity", "hyperelasticity") for p in range(1, 7)]
VECTOR = ("elasticity", "hyperelasticity")


def dofs(dim, p):
    return (p + 1) * (p + 2) // 2 if dim == 2 else (p + 1) * (p + 2) * (p + 3) // 6


def sf_row(dim, p, q):
    """One value or reference-derivative row of sum factorisation, per cell."""
    n = dofs(dim, p)
    if dim == 2:
        return 2 * q * n + 2 * q * q * (p + 1)
    return 2 * q * n + 2 * q * q * (p + 1) * (p + 2) // 2 + 2 * q ** 3 * (p + 1)


def gradients(terms, key):
    """How many (function, component) pairs of `terms` have a derivative row."""
    return len({key(t) for t in terms if any(t["derivative"])})


def counts(ir):
    """Dense and sum-factorised flops per cell of one action IR (femgpu-form's JSON)."""
    dim, p, Q = ir["dim"], ir["degree"], ir["Q"]
    q = math.ceil((ir["quadrature_degree"] + 1) / 2)
    q_sf = q ** dim
    rows_in = sum(ir["N_deriv"])
    n_in = ir["n_trial"]
    dense_contractions = sum(2 * n * Q * r for n, r in zip(n_in, ir["N_deriv"])) + 2 * ir["n_test"] * Q * ir["N_eval"]
    other = ir["flops_per_cell"] - dense_contractions - ir["pointwise_ops_per_point"] * Q  # geometry and per-cell values
    fields_in = sum(len({(t["function"], t["component"]) for t in g["terms"]}) for g in ir["groups"])
    fields_out = len({t["component"] for t in ir["test_terms"]})
    grads = sum(gradients(g["terms"], lambda t: (t["function"], t["component"])) for g in ir["groups"]) + \
        gradients(ir["test_terms"], lambda t: t["component"])
    n = ir["n_test"]
    sf_contractions = (rows_in + ir["N_eval"]) * sf_row(dim, p, q) + 2 * n * n * (fields_in + fields_out) + 2 * dim * dim * grads * q_sf
    return {
        "Q": Q, "q_sf": q_sf, "dense_contractions": dense_contractions, "sf_contractions": sf_contractions,
        "dense": ir["flops_per_cell"], "sf": sf_contractions + ir["pointwise_ops_per_point"] * q_sf + other, "other": other,
    }


def form_ir(femgpu_form, forms, op, dim, p):
    args = [femgpu_form, f"{forms}/{op}.ufl", "--cell", "triangle" if dim == 2 else "tetrahedron", "--degree", str(p)]
    if op in VECTOR:
        args += ["--components", str(dim)]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def table(femgpu_form, forms):
    print("| case | Q (rule) | q^d | dense contractions | sum-factorised contractions | dense total | sum-factorised total | dense / sum-factorised |")
    print("|---|---|---|---|---|---|---|---|")
    cut = []
    for op, dim, p in CASES:
        c = counts(form_ir(femgpu_form, forms, op, dim, p))
        if c["other"] < 0:  # the IR counts its contractions otherwise: these counts would be wrong
            sys.exit(f"{op} {dim}D P{p}: the dense contractions ({c['dense_contractions']}) and pointwise program exceed the IR's flops_per_cell ({c['dense']})")
        ratio = c["dense"] / c["sf"]
        rule = "collapsed" if c["Q"] == c["q_sf"] else "symmetric"
        print(f"| {op} {dim}D P{p} | {c['Q']} ({rule}) | {c['q_sf']} | {c['dense_contractions']} | {c['sf_contractions']} | "
              f"{c['dense']} | {c['sf']} | {ratio:.2f} |")
        if ratio > 1:
            cut.append(f"{op} {dim}D P{p} ({ratio:.2f}x)")
    print(f"\nSum factorisation has fewer flops in {len(cut)} of {len(CASES)} cases" + (": " + ", ".join(cut) if cut else "") + ".")


def self_test():
    # Helmholtz on P2 triangles (value and gradient in, value and gradient out), degree-4
    # rule of 6 points; by hand: dense contractions 2*6*6*(3+3) = 432; q = 3 (9 points);
    # a row 2*3*6 + 2*9*3 = 90, six rows 540; basis changes 2*36*(1+1) = 144; chain rule
    # 2*4*2*9 = 144; 828 in all; pointwise 16 a point.
    ir = {"dim": 2, "degree": 2, "Q": 6, "quadrature_degree": 4, "n_trial": [6], "n_test": 6, "N_deriv": [3], "N_eval": 3,
          "flops_per_cell": 547, "pointwise_ops_per_point": 16,
          "groups": [{"terms": [{"function": "u", "component": 0, "derivative": d} for d in ([0, 0], [0, 1], [1, 0])]}],
          "test_terms": [{"component": 0, "derivative": d} for d in ([0, 0], [0, 1], [1, 0])]}
    c = counts(ir)
    assert c["dense_contractions"] == 432, c
    assert c["sf_contractions"] == 828, c
    assert c["other"] == 547 - 432 - 96, c
    assert c["sf"] == 828 + 16 * 9 + c["other"], c
    # 3D, P5, a degree-16 rule (q = 9, 729 points), one row: 2*9*56 + 2*81*21 + 2*729*6.
    assert sf_row(3, 5, 9) == 1008 + 3402 + 8748
    # Vector elasticity on P1 tetrahedra: 3 components, 9 gradient rows in and out.
    terms = [{"function": "u", "component": k, "derivative": d} for k in range(3) for d in ([0, 0, 1], [0, 1, 0], [1, 0, 0])]
    ir = {"dim": 3, "degree": 1, "Q": 1, "quadrature_degree": 0, "n_trial": [4], "n_test": 4, "N_deriv": [9], "N_eval": 9,
          "flops_per_cell": 300, "pointwise_ops_per_point": 50, "groups": [{"terms": terms}],
          "test_terms": [{"component": t["component"], "derivative": t["derivative"]} for t in terms]}
    c = counts(ir)
    assert c["dense_contractions"] == 2 * 4 * 1 * 18, c
    # q = 1: a row 2*4 + 2*3 + 2*2 = 18; 18 rows; basis changes 2*16*6; chain rule 2*9*6*1.
    assert c["sf_contractions"] == 18 * 18 + 2 * 16 * 6 + 2 * 9 * 6, c
    print("sum_factorisation_flops.py: self-test passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    elif len(sys.argv) == 3:
        table(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
