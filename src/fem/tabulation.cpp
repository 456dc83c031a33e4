// Reference tabulation of scalar P_k Lagrange elements through PetscFE.
//
// Takes: dim, degree k, points on PETSc's reference simplex [-1,1]^d, max derivative
// order (0..2).
// Returns: BasisTable with values and every reference derivative of order <= max_order,
// and the element's nodes. The basis is numbered as PetscFECreateLagrange's dual space
// numbers it; that is the order DMPlex closures use for a field discretized with the
// same PetscFE, so the tables line up with closure vectors without permutation.
// Does not: pick node families or handle vector/other elements; the PetscFE is created
// without reading the options database (PetscFECreateLagrange does not call SetFromOptions).
#include "fem/tabulation.h"

#include "fem/petsc_check.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include <stdexcept>
#include <string>

namespace femgpu {
namespace {

using detail::check;
using FEGuard = detail::PetscGuard<PetscFE, PetscFEDestroy>;
using TabGuard = detail::PetscGuard<PetscTabulation, PetscTabulationDestroy>;

void check_element(int dim, int degree)
{
  if (dim < 1 || dim > 3)
    throw std::invalid_argument("Lagrange element: dim must be 1, 2 or 3, got " +
                                std::to_string(dim));
  if (degree < 0)
    throw std::invalid_argument("Lagrange element: negative degree " + std::to_string(degree));
}

void create_lagrange(int dim, int degree, FEGuard &fe)
{
  check(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 1, PETSC_TRUE, degree, PETSC_DETERMINE,
                              &fe.obj),
        "PetscFECreateLagrange");
}

// All multi-indices of total order exactly k in the first dim directions (k <= 2), with
// the flat offset of that derivative inside one [Nc=1][dim^k] block of T[k].
std::vector<std::pair<MultiIndex, int>> indices_of_order(int dim, int k)
{
  std::vector<std::pair<MultiIndex, int>> out;
  if (k == 0) out.push_back({{0, 0, 0}, 0});
  for (int i = 0; k == 1 && i < dim; ++i) {
    MultiIndex a{0, 0, 0};
    a[i] = 1;
    out.push_back({a, i});
  }
  // Mixed second derivatives are symmetric; read the (i, j) entry with i <= j.
  for (int i = 0; k == 2 && i < dim; ++i)
    for (int j = i; j < dim; ++j) {
      MultiIndex a{0, 0, 0};
      a[i] += 1;
      a[j] += 1;
      out.push_back({a, i * dim + j});
    }
  return out;
}

// Copies T[k] (layout [point][basis][Nc=1][dim^k]) into one table per multi-index.
void copy_order(const PetscTabulation T, int k, BasisTable &tab)
{
  int block = 1;
  for (int i = 0; i < k; ++i) block *= tab.dim;
  const PetscReal *src = T->T[k];
  for (const auto &[alpha, offset] : indices_of_order(tab.dim, k)) {
    std::vector<double> &dst = tab.table[alpha];
    dst.resize(static_cast<size_t>(tab.n_points) * tab.n_basis);
    for (size_t pb = 0; pb < dst.size(); ++pb) dst[pb] = src[pb * block + offset];
  }
}

}  // namespace

const std::vector<double> &BasisTable::at(const MultiIndex &alpha) const
{
  auto it = table.find(alpha);
  if (it == table.end())
    throw std::out_of_range("BasisTable: no derivative (" + std::to_string(alpha[0]) + "," +
                            std::to_string(alpha[1]) + "," + std::to_string(alpha[2]) +
                            ") in a table of dim " + std::to_string(dim) +
                            " and max order " + std::to_string(max_order));
  return it->second;
}

BasisTable tabulate_lagrange(int dim, int degree, const std::vector<double> &points,
                             int max_order)
{
  check_element(dim, degree);
  if (max_order < 0 || max_order > 2)
    throw std::invalid_argument("tabulate_lagrange: max_order must be 0, 1 or 2, got " +
                                std::to_string(max_order));
  if (points.size() % dim != 0)
    throw std::invalid_argument("tabulate_lagrange: points.size() is not a multiple of dim");
  BasisTable tab;
  tab.dim = dim;
  tab.degree = degree;
  tab.max_order = max_order;
  tab.n_points = static_cast<int>(points.size() / dim);
  FEGuard fe;
  create_lagrange(dim, degree, fe);
  TabGuard T;
  // PetscReal == double is asserted in petsc_check.h, so the data pointer passes as is.
  check(PetscFECreateTabulation(fe.obj, 1, tab.n_points, points.data(), max_order, &T.obj),
        "PetscFECreateTabulation");
  if (T.obj->Nc != 1 || T.obj->cdim != dim || T.obj->Np != tab.n_points)
    throw std::runtime_error("PetscFECreateTabulation returned an unexpected layout");
  tab.n_basis = static_cast<int>(T.obj->Nb);
  for (int k = 0; k <= max_order; ++k) copy_order(T.obj, k, tab);
  return tab;
}

std::vector<double> lagrange_nodes(int dim, int degree)
{
  check_element(dim, degree);
  FEGuard fe;
  create_lagrange(dim, degree, fe);
  PetscDualSpace sp = nullptr;  // borrowed from fe; not destroyed here
  check(PetscFEGetDualSpace(fe.obj, &sp), "PetscFEGetDualSpace");
  PetscInt n = 0;
  check(PetscDualSpaceGetDimension(sp, &n), "PetscDualSpaceGetDimension");
  std::vector<double> nodes;
  nodes.reserve(static_cast<size_t>(n) * dim);
  for (PetscInt i = 0; i < n; ++i) {
    PetscQuadrature f = nullptr;  // borrowed from sp
    check(PetscDualSpaceGetFunctional(sp, i, &f), "PetscDualSpaceGetFunctional");
    PetscInt qdim = 0, nc = 0, np = 0;
    const PetscReal *pts = nullptr, *wts = nullptr;
    check(PetscQuadratureGetData(f, &qdim, &nc, &np, &pts, &wts), "PetscQuadratureGetData");
    // A Lagrange functional is one point evaluation; anything else means a different element.
    if (np != 1 || qdim != dim)
      throw std::runtime_error("lagrange_nodes: functional " + std::to_string(i) +
                               " is not a single point evaluation");
    nodes.insert(nodes.end(), pts, pts + dim);
  }
  return nodes;
}


// The same element's functionals with equispaced 1D node families: PETSc builds both
// node types from the same lattice of multi-indices, so functional i of one is
// functional i of the other, and these nodes lie on the lattice of step 2/k.
std::vector<double> lagrange_lattice_nodes(int dim, int degree)
{
  check_element(dim, degree);
  DM cell = nullptr;
  PetscDualSpace sp = nullptr;
  check(DMPlexCreateReferenceCell(PETSC_COMM_SELF, dim == 2 ? DM_POLYTOPE_TRIANGLE : DM_POLYTOPE_TETRAHEDRON, &cell),
        "DMPlexCreateReferenceCell");
  check(PetscDualSpaceCreate(PETSC_COMM_SELF, &sp), "PetscDualSpaceCreate");
  check(PetscDualSpaceSetType(sp, PETSCDUALSPACELAGRANGE), "PetscDualSpaceSetType");
  check(PetscDualSpaceSetDM(sp, cell), "PetscDualSpaceSetDM");
  check(PetscDualSpaceSetNumComponents(sp, 1), "PetscDualSpaceSetNumComponents");
  check(PetscDualSpaceSetOrder(sp, degree), "PetscDualSpaceSetOrder");
  check(PetscDualSpaceLagrangeSetContinuity(sp, PETSC_TRUE), "PetscDualSpaceLagrangeSetContinuity");
  check(PetscDualSpaceLagrangeSetNodeType(sp, PETSCDTNODES_EQUISPACED, PETSC_TRUE, 0.0), "PetscDualSpaceLagrangeSetNodeType");
  check(PetscDualSpaceSetUp(sp), "PetscDualSpaceSetUp");
  PetscInt n = 0;
  check(PetscDualSpaceGetDimension(sp, &n), "PetscDualSpaceGetDimension");
  std::vector<double> nodes;
  for (PetscInt i = 0; i < n; ++i) {
    PetscQuadrature f = nullptr;
    check(PetscDualSpaceGetFunctional(sp, i, &f), "PetscDualSpaceGetFunctional");
    PetscInt qdim = 0, nc = 0, np = 0;
    const PetscReal *pts = nullptr, *wts = nullptr;
    check(PetscQuadratureGetData(f, &qdim, &nc, &np, &pts, &wts), "PetscQuadratureGetData");
    nodes.insert(nodes.end(), pts, pts + dim);
  }
  check(PetscDualSpaceDestroy(&sp), "PetscDualSpaceDestroy");
  check(DMDestroy(&cell), "DMDestroy");
  return nodes;
}

}  // namespace femgpu
