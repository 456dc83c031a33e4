// a(f, g) two ways, for exactness tests: the reference action on interpolated
// polynomials f, g in P_K over disconnected cells, and the closed-form integral.
#pragma once

#include "fem/action_tables.h"
#include "cell_mesh.h"
#include "polynomial.h"

namespace femgpu::test {

using Fields = std::vector<Poly>;  // one polynomial per component

inline Fields random_fields(int dim, int degree, int components, std::mt19937 &rng)
{
  Fields f;
  for (int c = 0; c < components; ++c) f.push_back(Poly::random(dim, degree, rng));
  return f;
}

// g^T A f with the reference action and the form's default constants.
inline double reference_a(const ActionIR &ir, const Tabulation &tab, const CellMesh &mesh, const Fields &f, const Fields &g)
{
  const int K = ir.signature.element.degree, C = ir.signature.element.components;
  auto at = [](const Fields &h) { return [&h](int c, const double *x) { return h[size_t(c)](x); }; };
  std::vector<double> fd = interpolate(mesh, K, C, at(f)), gd = interpolate(mesh, K, C, at(g));
  std::vector<int> map = identity_map(fd.size());
  ActionArrays arrays;
  arrays.n_cells = mesh.n_cells;
  arrays.coordinates = {mesh.vertices.data(), mesh.coordinate_map.data()};
  arrays.trial = {fd.data(), map.data()};
  arrays.test_map = map.data();
  for (const ConstantInfo &ci : ir.constants) arrays.constants.push_back(ci.default_value);
  std::vector<double> out(fd.size(), 0.0);
  reference_action(ir, tab, arrays, out.data());
  double a = 0.0;
  for (size_t i = 0; i < out.size(); ++i) a += out[i] * gd[i];
  return a;
}

// The exact integral of a polynomial over the union of the mesh's cells.
inline double exact_on_cells(const Poly &integrand, const CellMesh &mesh)
{
  const size_t nv = static_cast<size_t>((mesh.dim + 1) * mesh.dim);
  double total = 0.0;
  for (int k = 0; k < mesh.n_cells; ++k)
    total += integrate(integrand, std::vector<double>(mesh.vertices.begin() + static_cast<long>(k * nv),
                                                      mesh.vertices.begin() + static_cast<long>((k + 1) * nv)), mesh.dim);
  return total;
}

}  // namespace femgpu::test
