#!/usr/bin/env python3
"""Writes a Gmsh 2.2 ASCII mesh of the unit square or cube, for PETSc programs that read
meshes from files (Debian's PETSc 3.18 has no simplex mesh generator): n x n squares of
2 triangles, or n x n x n cubes of 6 Kuhn tetrahedra, every cell in physical group 1.
ORDER 2 writes straight second-order cells (6-node triangles, 10-node tetrahedra: a node
at the middle of every edge, in Gmsh's order), which PETSc's reader keeps as cellwise
P2 coordinates.

usage: make_gmsh_box.py DIM N OUT.msh [ORDER]
"""
import itertools
import sys


def positive(tet, nodes):
    """The tetrahedron with its vertices ordered for a positive volume, as Gmsh orders them."""
    a, b, c, d = (nodes[i - 1] for i in tet)
    u, v, w = ([q[k] - a[k] for k in range(3)] for q in (b, c, d))
    det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])
    return tet if det > 0 else [tet[0], tet[2], tet[1], tet[3]]


# Gmsh's edges of a second-order cell, in the order of its edge nodes.
EDGES = {2: [(0, 1), (1, 2), (2, 0)], 3: [(0, 1), (1, 2), (2, 0), (3, 0), (3, 2), (3, 1)]}


def with_edge_nodes(cells, nodes, dim):
    """Each cell followed by its edges' midpoints, one node per edge shared by its cells."""
    midpoint = {}
    out = []
    for c in cells:
        extra = []
        for a, b in EDGES[dim]:
            key = tuple(sorted((c[a], c[b])))
            if key not in midpoint:
                nodes.append([(p + q) / 2 for p, q in zip(nodes[key[0] - 1], nodes[key[1] - 1])])
                midpoint[key] = len(nodes)
            extra.append(midpoint[key])
        out.append(c + extra)
    return out


def main():
    dim, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    order = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    shape = [n + 1] * dim
    index = {}
    nodes = []
    for ijk in itertools.product(*[range(s) for s in reversed(shape)]):
        ijk = tuple(reversed(ijk))
        index[ijk] = len(nodes) + 1
        nodes.append([c / n for c in ijk] + [0.0] * (3 - dim))
    cells = []
    for base in itertools.product(*[range(n)] * dim):
        corner = lambda offs: index[tuple(b + o for b, o in zip(base, offs))]
        if dim == 2:
            cells += [[corner((0, 0)), corner((1, 0)), corner((1, 1))], [corner((0, 0)), corner((1, 1)), corner((0, 1))]]
        else:
            # Kuhn: one tetrahedron per permutation of the axes, along the cube's diagonal.
            for perm in itertools.permutations(range(3)):
                path, p = [corner((0, 0, 0))], [0, 0, 0]
                for axis in perm:
                    p[axis] = 1
                    path.append(corner(tuple(p)))
                cells.append(positive(path, nodes))
    kind = 2 if dim == 2 else 4
    if order == 2:
        cells = with_edge_nodes(cells, nodes, dim)
        kind = 9 if dim == 2 else 11
    with open(out, "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(nodes))
        for i, x in enumerate(nodes):
            f.write("%d %.17g %.17g %.17g\n" % (i + 1, *x))
        f.write("$EndNodes\n$Elements\n%d\n" % len(cells))
        for i, c in enumerate(cells):
            f.write("%d %d 2 1 1 %s\n" % (i + 1, kind, " ".join(map(str, c))))
        f.write("$EndElements\n")


if __name__ == "__main__":
    main()
