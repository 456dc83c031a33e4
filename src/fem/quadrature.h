// Quadrature rules on PETSc's reference simplex (vertices (-1,..,-1), (1,-1,..), ...).
//
// Takes: the cell dimension and the polynomial degree to integrate exactly.
// Returns: points and weights (weights sum to the reference volume: 2 in 2D, 4/3 in 3D).
// Rules: Xiao-Gimbutas symmetric rules read from share/femgpu/quadrature/ where the
// table has that degree (triangles 1-30, tetrahedra 1-15); otherwise PETSc's collapsed
// Gauss-Jacobi (Stroud conical) rule. Degree 0 is treated as degree 1.
// Does not: cache; callers keep the rule they get.
#pragma once

#include <string>
#include <vector>

#include "fem/share_dir.h"  // default_share_dir(), which callers pass as share_dir

namespace femgpu {

struct QuadratureRule {
  int dim = 0;
  int degree = 0;            // exact for polynomials of this total degree
  std::string family;        // "xiao-gimbutas" | "stroud-conical"
  std::vector<double> points;   // size() x dim, row-major, reference coordinates
  std::vector<double> weights;  // size()
  int size() const { return static_cast<int>(weights.size()); }
};

// share_dir: the folder holding femgpu's data (the one with quadrature/ in it).
QuadratureRule simplex_quadrature(int dim, int degree, const std::string &share_dir);

}  // namespace femgpu
