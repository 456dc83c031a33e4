// Tabulated reference basis functions of scalar P_k Lagrange elements (from PetscFE).
//
// Takes: the cell dimension, the degree k, points on PETSc's reference simplex and the
// highest derivative order wanted.
// Returns: values and reference derivatives of each basis function at each point, with
// the basis numbered as PetscFE numbers it (the order of the DMPlex closure). A vector
// element with C components uses this scalar table: its basis function (j, c) is the
// closure entry j*C + c.
// Does not: map to physical cells; geometry lives in the pointwise program.
#pragma once

#include <array>
#include <cstddef>  // size_t in BasisTable::operator()
#include <map>
#include <vector>

#include "ir/multi_index.h"

namespace femgpu {

struct BasisTable {
  int dim = 0;
  int degree = 0;
  int n_basis = 0;
  int n_points = 0;
  int max_order = 0;
  // For every multi-index with order <= max_order: n_points x n_basis, row-major.
  std::map<MultiIndex, std::vector<double>> table;

  const std::vector<double> &at(const MultiIndex &alpha) const;  // throws if absent
  double operator()(const MultiIndex &alpha, int point, int basis) const {
    return at(alpha)[static_cast<size_t>(point) * n_basis + basis];
  }
};

// Requires PetscInitialize to have been called.
BasisTable tabulate_lagrange(int dim, int degree, const std::vector<double> &points,
                             int max_order);

// The nodes of the P_k Lagrange element (the points its dual basis evaluates at), in
// basis order: n_basis x dim on the reference simplex. For interpolation in tests.
std::vector<double> lagrange_nodes(int dim, int degree);

// The element's node j with equispaced 1D node families (on the lattice of step 2/k),
// for numbering DOFs on structured meshes; same order as lagrange_nodes.
std::vector<double> lagrange_lattice_nodes(int dim, int degree);


}  // namespace femgpu
