// Structured simplex meshes of the unit square/cube with P_k DOFs numbered on the
// lattice of all nodes (the numbering a structured code would use), built directly,
// without DMPlex: the benchmark meshes (3,276,800 triangles, 1,053,696 tetrahedra) are
// made in seconds.
//
// Takes: dim, intervals per direction N, degree k, components C.
// Returns: coordinates of the P1 vertices, the coordinate map (P1, dim components) and
// the DOF map (n_basis x C per cell) in PetscFE basis order, as ActionArrays expects.
// Node j of a cell is numbered by where the element's equispaced counterpart of node j
// lies on the lattice (lagrange_lattice_nodes), so cells sharing an edge or face agree.
#pragma once

#include <cstddef>
#include <vector>

namespace femgpu {

struct LatticeMesh {
  int dim = 2, n_intervals = 1, degree = 1, components = 1;
  int n_cells = 0;
  std::size_t n_nodes = 0;  // (kN+1)^d
  std::vector<double> coordinates;  // P1 vertices x dim
  std::vector<int> coordinate_map;  // n_cells x (dim+1): each vertex's first coordinate
  std::vector<int> map;             // n_cells x n_basis*C
  std::size_t n_dofs() const { return n_nodes * static_cast<std::size_t>(components); }
};

LatticeMesh lattice_mesh(int dim, int n_intervals, int degree, int components);

}  // namespace femgpu
