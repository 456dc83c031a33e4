// Scalarization: a tensor-valued expression becomes a tensor of SSA node ids.
//
// Takes: expressions (form/expr.h) and the program to build into.
// Returns: Tensor values; spatial derivatives, diff() and derivative() become
// forward-mode derivatives of the SSA (ir/derivative.h), with physical gradients
// expanded as grad f = sum_k dref_k f * K[k][i], K = J^{-1}.
// Does not: check linearity or pick quadrature (lower.cpp does).
#pragma once

#include <map>
#include <vector>

#include "form/form.h"
#include "ir/program.h"

namespace femgpu {

struct Tensor {
  Shape shape;
  std::vector<int> ids;  // row-major
};

// The geometry terms shared by every expression of one form.
struct Geometry {
  int dim = 0;
  bool affine = true;
  std::vector<int> J;  // dim x dim: dx_i/dX_k
  std::vector<int> K;  // dim x dim: dX_k/dx_i
  int detJ = -1;
  // A ds integral on local facet `facet` (-1: a cell integral, none of these): the unit
  // outward normal n_i = (K^T n_f)_i / |K^T n_f| and the surface factor |K^T n_f|
  // (ds = |det J| |K^T n_f| dS_ref, Nanson), n_f the reference facet's normal.
  int facet = -1;
  std::vector<int> normal;
  int surface = -1;
};

// facet: -1 for cell integrals, else the local facet of the ds integrals (reference_facets.h).
Geometry build_geometry(Program &p, int dim, bool affine, int facet = -1);

class Scalarizer {
 public:
  Scalarizer(Program &p, const Geometry &g) : p_(p), g_(g) {}
  Tensor operator()(const Expr &e);

 private:
  Tensor compute(const Expr &e);
  Tensor terminal(const Expr &e);
  Tensor algebra(const Expr &e);
  Tensor spatial(const Expr &e);
  Tensor scalar_functions(const Expr &e);
  Tensor differentiation(const Expr &e);
  Tensor grad_of(const Tensor &t);
  int eval_input(int function, int component, const std::array<int, 3> &alpha);

  Program &p_;
  const Geometry &g_;
  std::map<const Node *, Tensor> memo_;
  std::map<const Node *, Tensor> variables_;  // Variable node -> its Ident-marked tensor
};

// Matrix helpers on flat row-major id arrays (n x n), shared with geometry.
int det_ids(Program &p, const std::vector<int> &A, int n);
std::vector<int> inverse_ids(Program &p, const std::vector<int> &A, int n, int det);

}  // namespace femgpu
