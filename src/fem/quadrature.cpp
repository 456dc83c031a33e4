// Simplex quadrature: Xiao-Gimbutas tables from share/, PETSc Stroud conical otherwise.
//
// Takes: dim, the degree to integrate exactly, and the share folder with quadrature/.
// Returns: a QuadratureRule on PETSc's reference simplex [-1,1]^d (see quadrature.h).
// Does not: cache rules, or check exactness (tests/unit/test_quadrature_exactness.cpp
// does); the table file format is documented in generate_xiao_gimbutas.py.
#include "fem/quadrature.h"

#include "fem/petsc_check.h"

#include <petscdt.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace femgpu {
namespace {

std::string table_path(int dim, const std::string &share_dir)
{
  const char *cell = dim == 2 ? "triangle" : "tetrahedron";
  return share_dir + "/quadrature/xiao_gimbutas_" + cell + ".txt";
}

[[noreturn]] void malformed(const std::string &path, int line, const std::string &why)
{
  throw std::runtime_error("malformed quadrature table " + path + ":" +
                           std::to_string(line) + ": " + why);
}

// Reads the next line that is neither blank nor a '#' comment; false at end of file.
bool next_data_line(std::istream &in, std::string &text, int &line_no)
{
  while (std::getline(in, text)) {
    ++line_no;
    const auto first = text.find_first_not_of(" \t\r");
    if (first != std::string::npos && text[first] != '#') return true;
  }
  return false;
}

// Reads "degree <k> points <n>"; the words must be exactly these.
void read_header(const std::string &text, const std::string &path, int line_no,
                 int &degree, int &npoints)
{
  std::istringstream ls(text);
  std::string w1, w2, extra;
  if (!(ls >> w1 >> degree >> w2 >> npoints) || w1 != "degree" || w2 != "points" ||
      (ls >> extra) || degree < 0 || npoints <= 0)
    malformed(path, line_no, "expected 'degree <k> points <n>', got '" + text + "'");
}

// Reads one "x y [z] w" line on the unit simplex and appends it mapped to [-1,1]^d.
void read_point(const std::string &text, const std::string &path, int line_no, int dim,
                QuadratureRule &rule)
{
  std::istringstream ls(text);
  double v[4];
  std::string extra;
  for (int i = 0; i <= dim; ++i)
    if (!(ls >> v[i])) malformed(path, line_no, "expected " + std::to_string(dim + 1) + " numbers");
  if (ls >> extra) malformed(path, line_no, "trailing text '" + extra + "'");
  // x_ref = 2 x_unit - 1 scales lengths by 2, so volumes (and weights) by 2^dim.
  for (int i = 0; i < dim; ++i) rule.points.push_back(2.0 * v[i] - 1.0);
  rule.weights.push_back(v[dim] * static_cast<double>(1 << dim));
}

// The table's rule of exactly this degree, or nothing when the table lacks it.
std::optional<QuadratureRule> load_xiao_gimbutas(int dim, int degree,
                                                 const std::string &share_dir)
{
  const std::string path = table_path(dim, share_dir);
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open quadrature table " + path +
                             " (is the femgpu share folder '" + share_dir + "' right?)");
  std::string text;
  int line_no = 0;
  while (next_data_line(in, text, line_no)) {
    int k = 0, n = 0;
    read_header(text, path, line_no, k, n);
    QuadratureRule rule{dim, k, "xiao-gimbutas", {}, {}};
    for (int p = 0; p < n; ++p) {
      if (!next_data_line(in, text, line_no))
        malformed(path, line_no, "file ends inside the degree " + std::to_string(k) + " rule");
      // Other degrees are parsed too, so a broken file fails whatever degree is asked.
      read_point(text, path, line_no, dim, rule);
    }
    if (k == degree) return rule;
  }
  return std::nullopt;
}

QuadratureRule stroud_conical(int dim, int degree)
{
  // n Gauss-Jacobi points per direction are exact to 2n-1 >= degree+1 > degree.
  const PetscInt npoints_1d = (degree + 2 + 1) / 2;
  detail::PetscGuard<PetscQuadrature, PetscQuadratureDestroy> q;
  detail::check(PetscDTStroudConicalQuadrature(dim, 1, npoints_1d, -1.0, 1.0, &q.obj),
                "PetscDTStroudConicalQuadrature");
  PetscInt qdim = 0, nc = 0, np = 0;
  const PetscReal *pts = nullptr, *wts = nullptr;
  detail::check(PetscQuadratureGetData(q.obj, &qdim, &nc, &np, &pts, &wts),
                "PetscQuadratureGetData");
  if (qdim != dim || nc != 1)
    throw std::runtime_error("PetscDTStroudConicalQuadrature returned an unexpected rule");
  QuadratureRule rule{dim, degree, "stroud-conical", {}, {}};
  rule.points.assign(pts, pts + np * dim);
  rule.weights.assign(wts, wts + np);
  return rule;
}

}  // namespace

QuadratureRule simplex_quadrature(int dim, int degree, const std::string &share_dir)
{
  if (dim < 1 || dim > 3)
    throw std::invalid_argument("simplex_quadrature: dim must be 1, 2 or 3, got " +
                                std::to_string(dim));
  if (degree < 0)
    throw std::invalid_argument("simplex_quadrature: negative degree " + std::to_string(degree));
  degree = std::max(degree, 1);  // a degree-1 rule is also exact for constants
  if (dim >= 2) {
    if (auto rule = load_xiao_gimbutas(dim, degree, share_dir)) return *rule;
  }
  return stroud_conical(dim, degree);
}

}  // namespace femgpu
