// The action IR: the structure of the paper's Eq. (3) for one form.
//
//   evaluation:  for each group (functions sharing an element and a DOF map), the
//                reference derivatives (component, multi-index) needed at quadrature points;
//   pointwise:   an SSA program computing e_1..e_N_eval from those values, the geometry
//                (J or the coordinate field), quadrature weight, and constants;
//   quadrature:  e_j contracts with test term j (component, multi-index of v).
//
// Produced by lower_form (lower.h); consumed by the CPU reference, the kernel
// generators and the cost model. Immutable once built.
#pragma once

#include <string>
#include <vector>

#include "form/form.h"
#include "ir/multi_index.h"
#include "ir/program.h"

namespace femgpu {

// One evaluated quantity: d^alpha (function)_component at a quadrature point.
struct EvalTerm {
  int function = 0;   // kTrialFunction, coefficient_function(i) or kCoordinates
  int component = 0;
  int derivative = 0;  // index into EvalGroup::derivatives
};

// Functions that share an element and DOF map; their evaluation is one loop over the
// element's basis (the paper's U_i / V_i). N_deriv = terms.size().
struct EvalGroup {
  Element element;
  bool coordinates = false;          // the coordinate field (P1 with x, or P2 geometry)
  std::vector<int> functions;        // in first-use order
  std::vector<MultiIndex> derivatives;  // distinct reference derivatives (tables)
  std::vector<EvalTerm> terms;
  int n_basis = 0;                   // scalar basis functions n
};

struct TestTerm {
  int component = 0;
  int derivative = 0;  // index into ActionIR::test_derivatives
};

// The pointwise program with named roles for its inputs and outputs.
struct Pointwise {
  Program program;             // dead code removed, topological order
  std::vector<int> outputs;    // e_j, one per test term (node ids)
  // For each program input: the evaluation it reads (group, term) when it is an Eval.
  std::vector<int> input_group, input_term;
  std::vector<char> varies;    // per node: 1 if it changes between quadrature points
  // Per node: 1 if it is the same at every point but the kernels recompute it there: a
  // cheap operation (+, *, -) on values the point loop reads anyway, so that no register
  // holds it across the loops (lower.cpp's mark_recomputed). FLOP counts ignore this.
  std::vector<char> recomputed;
};

struct ActionIR {
  FormSignature signature;
  int dim = 0;
  int rank = 2;  // 2: bilinear form (the action of a matrix); 1: residual (a vector)
  bool affine = true;
  std::vector<CoefficientInfo> coefficients;
  std::vector<ConstantInfo> constants;

  int quadrature_degree = 0;
  bool quadrature_degree_estimated = true;
  // Which integrals: dx (facet -1), or a ds domain on local facet `facet` of the
  // reference cell, whose quadrature rule lies on that facet (fem/facet_quadrature.h).
  IntegralDomain domain;
  int facet = -1;

  std::vector<EvalGroup> groups;
  std::vector<MultiIndex> test_derivatives;
  std::vector<TestTerm> test_terms;  // N_eval = test_terms.size()
  int n_test_basis = 0;

  Pointwise pointwise;

  int n_eval() const { return static_cast<int>(test_terms.size()); }
  int group_of_function(int function) const;  // -1 if not evaluated
};

// Per constant slot of ir.constants: whether the pointwise program reads it (a form's
// constant may vanish from an operator, as the time t from the Jacobian of a forcing term).
std::vector<bool> constants_read(const ActionIR &ir);

// DOFs per cell of the trial (= test) function of a bilinear form: n_test_basis *
// components, the width of its cell matrices.
inline int cell_width(const ActionIR &ir) { return ir.n_test_basis * ir.signature.element.components; }

// FLOP counts of one cell for Q quadrature points, as the paper counts them: the
// evaluation and quadrature contractions (Eq. 12) plus the pointwise program
// (per point for what varies, once for what does not) and the affine Jacobian.
struct FlopCount {
  long long contractions = 0;
  long long pointwise = 0;
  long long geometry = 0;
  long long total() const { return contractions + pointwise + geometry; }
};
// test_identity: the points are the test basis functions and the test table the
// identity (fem/action_tables.h), so the quadrature contraction is no work: each point's
// value is its output's.
FlopCount count_flops(const ActionIR &ir, int n_quadrature_points, bool test_identity = false);

// Pointwise program operation counts: per quadrature point and per cell.
// The values the point code reads that are the same at every point of a cell and are
// not constants: they are held across the loops (registers, or CellValues::Shared).
// Node ids, increasing.
std::vector<int> held_cell_values(const Pointwise &pw);

struct PointwiseCost {
  int per_point = 0;
  int per_cell = 0;
};
PointwiseCost pointwise_cost(const Pointwise &pw);

}  // namespace femgpu
