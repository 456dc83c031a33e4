// Lowering and operands of one femgpu-bench case (bench_case.h).
#include "tools/bench_case.h"

#include <random>

#include "fem/quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"

namespace femgpu {

namespace {

bool is_vector(const std::string &op) { return op == "elasticity" || op == "hyperelasticity"; }

}  // namespace

std::string BenchCase::name() const { return op + " P" + std::to_string(degree) + " " + std::to_string(dim) + "D"; }

std::unique_ptr<BenchCase> lower_case(const std::string &op, int dim, int degree, Points points)
{
  auto c = std::make_unique<BenchCase>();
  c->op = op, c->dim = dim, c->degree = degree;
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, is_vector(op) ? dim : 1}, 1};
  c->ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + op + ".ufl", sig).a);
  c->tab = tabulate_action(c->ir, default_share_dir(), points);
  return c;
}

std::unique_ptr<BenchOperands> host_operands(const BenchCase &c, int intervals)
{
  auto o = std::make_unique<BenchOperands>();
  o->mesh = lattice_mesh(c.dim, intervals, c.degree, is_vector(c.op) ? c.dim : 1);
  const LatticeMesh &mesh = o->mesh;
  std::mt19937 rng(static_cast<unsigned>(c.dim * 100 + c.degree));
  std::uniform_real_distribution<double> u(-1, 1);
  o->trial.resize(mesh.n_dofs());
  o->coefficient.resize(mesh.n_dofs());
  for (size_t i = 0; i < o->trial.size(); ++i) o->trial[i] = u(rng), o->coefficient[i] = 0.1 * u(rng);
  ActionArrays &a = o->arrays;
  a.n_cells = mesh.n_cells;
  a.coordinates = {mesh.coordinates.data(), mesh.coordinate_map.data()};
  a.trial = {o->trial.data(), mesh.map.data()};
  for (size_t i = 0; i < c.ir.coefficients.size(); ++i) a.coefficients.push_back({o->coefficient.data(), mesh.map.data()});
  a.test_map = mesh.map.data();
  for (const ConstantInfo &k : c.ir.constants) a.constants.push_back(k.default_value);
  return o;
}

std::unique_ptr<BenchOperands> upload_operands(const BenchCase &c, int intervals)
{
  std::unique_ptr<BenchOperands> o = host_operands(c, intervals);
  o->data = std::make_unique<DeviceActionData>(c.ir, c.tab, o->arrays, o->mesh.n_dofs(), Precision::FP64);
  return o;
}

}  // namespace femgpu
