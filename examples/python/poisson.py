#!/usr/bin/env python3
"""The screened Poisson equation -lap(u) + u = f on the unit square with natural boundary
conditions, from Python through petsc4py. The operator is a fem_gpu Mat (the form file
share/femgpu/forms/helmholtz.ufl: (grad u, grad v) + (u, v)); the solver is PETSc's KSP
(CG with Jacobi, whose diagonal femgpu computes). The exact solution is
g = cos(pi x) cos(pi y), so f = (1 + 2 pi^2) g.

    /usr/bin/python3 examples/python/poisson.py -dll_append build/libfemgpu.so \\
        [-degree 2] [-dm_plex_box_faces 8,8] [-mat_fem_gpu_backend auto|cpu|opencl|cuda] [-ksp_monitor]

It needs a Python with numpy and a petsc4py built on the PETSc femgpu was built against: on
Debian, the system's /usr/bin/python3 with the package python3-petsc4py (installed by
scripts/install-debian-deps.sh). Another python3 first on PATH (a pyenv, a virtualenv)
usually has neither; the script then names the module it misses and this fix.

PETSc loads libfemgpu.so itself (-dll_append registers the Mat type "fem_gpu"); the rest
is options and petsc4py calls. Three fem_gpu Mats, told apart by options prefixes: the
operator A (no prefix), the mass matrix M ("mass_") and G ("exact_": the form g u v dx,
exact_weighted_mass.ufl); M and G run on the CPU reference unless told otherwise. G applied to the all-ones vector (the interpolant of 1 in any
degree) is the load vector (g, phi_i), so b = (1 + 2 pi^2) G 1, and the L2 error needs no
interpolation either:  ||u_h - g||^2 = u_h.(M u_h) - 2 u_h.(G 1) + ||g||^2,  ||g||^2 = 1/4.

Prints the solve's iterations and 'L2 error E' (P_k: E falls as h^(k+1)).
"""
import math
import os
import sys

try:
    import numpy
    import petsc4py
except ImportError as missing:
    sys.exit("poisson.py: this Python (%s) has no module '%s'. Run the example with a Python that has numpy and a\n"
             "petsc4py built on femgpu's PETSc: on Debian, /usr/bin/python3 with the package python3-petsc4py\n"
             "(scripts/install-debian-deps.sh installs it)." % (sys.executable, missing.name))

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402  (after init, which reads the command line)

HERE = os.path.dirname(os.path.abspath(__file__))
FORMS = os.path.join(HERE, "..", "..", "share", "femgpu", "forms")


def unit_square(n, comm):
    """n x n squares, two triangles each, made on rank 0 and distributed (no mesh generator)."""
    cells, coords = numpy.zeros((0, 3), dtype=PETSc.IntType), numpy.zeros((0, 2))
    if comm.rank == 0:
        coords = numpy.array([[i / n, j / n] for j in range(n + 1) for i in range(n + 1)])
        v = numpy.array([j * (n + 1) + i for j in range(n) for i in range(n)], dtype=PETSc.IntType)
        cells = numpy.concatenate([numpy.stack([v, v + 1, v + n + 2], axis=1), numpy.stack([v, v + n + 2, v + n + 1], axis=1)])
    dm = PETSc.DMPlex().createFromCellList(2, cells, coords, comm=comm)
    dm.distribute()
    return dm


def fem_gpu_mat(dm, prefix, form_file, backend=None):
    """A fem_gpu Mat on dm's field, with this form file and backend unless the options
    (-<prefix>mat_fem_gpu_form_file, -<prefix>mat_fem_gpu_backend) say otherwise."""
    options = PETSc.Options()
    defaults = {"mat_fem_gpu_form_file": form_file, "mat_fem_gpu_backend": backend}
    for name, value in defaults.items():
        if value is not None and not options.hasName(prefix + name):
            options.setValue(prefix + name, value)
    A = PETSc.Mat().create(comm=dm.comm)
    A.setOptionsPrefix(prefix)
    sizes = dm.createGlobalVec().getSizes()  # (local, global)
    A.setSizes((sizes, sizes))
    try:
        A.setType("fem_gpu")
    except PETSc.Error:
        sys.exit("poisson.py: no Mat type fem_gpu: load femgpu with -dll_append /path/to/lib/libfemgpu.so")
    A.setDM(dm)
    A.setFromOptions()
    A.setUp()
    return A


def main():
    comm = PETSc.COMM_WORLD
    options = PETSc.Options()
    degree = options.getInt("degree", 2)
    n = int(options.getString("dm_plex_box_faces", "8,8").split(",")[0])  # n,n: a square mesh
    dm = unit_square(n, comm)
    fe = PETSc.FE().createLagrange(2, 1, True, degree, PETSc.DETERMINE, comm=comm)
    dm.setField(0, fe)
    dm.createDS()

    A = fem_gpu_mat(dm, "", os.path.join(FORMS, "helmholtz.ufl"))
    # The load and the error come from the CPU reference (the oracle, applied once each),
    # whatever backend the operator runs on.
    M = fem_gpu_mat(dm, "mass_", os.path.join(FORMS, "mass.ufl"), backend="cpu")
    G = fem_gpu_mat(dm, "exact_", os.path.join(HERE, "exact_weighted_mass.ufl"), backend="cpu")

    ones, load, b, u = (dm.createGlobalVec() for _ in range(4))
    ones.set(1.0)
    G.mult(ones, load)  # (g, phi_i)
    load.copy(b)
    b.scale(1 + 2 * math.pi ** 2)

    ksp = PETSc.KSP().create(comm=comm)
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("jacobi")
    ksp.setTolerances(rtol=1e-10)
    ksp.setErrorIfNotConverged(True)
    ksp.setFromOptions()
    ksp.solve(b, u)

    Mu = u.duplicate()
    M.mult(u, Mu)
    error = math.sqrt(max(u.dot(Mu) - 2 * u.dot(load) + 0.25, 0.0))
    reasons = {v: k for k, v in vars(PETSc.KSP.ConvergedReason).items() if not k.startswith("_")}
    PETSc.Sys.Print("P%d on %d triangles, %d DOFs: %s %s %s in %d iterations" % (
        degree, 2 * n * n, u.getSize(), ksp.getType(), ksp.getPC().getType(),
        reasons.get(ksp.getConvergedReason(), ksp.getConvergedReason()), ksp.getIterationNumber()))
    PETSc.Sys.Print("L2 error %.6e" % error)


if __name__ == "__main__":
    main()
