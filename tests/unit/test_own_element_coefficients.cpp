// Coefficients in their own element (a P1 and a DG0 scalar, a P2 and a DG0 vector): each
// is its own evaluation group with its own basis size, which the FLOP count, the cost
// model's kernel shape and the tuner's candidates follow; every candidate the tuner
// offers for such a form is a valid schedule whose OpenCL kernel adds the reference's
// action. (The covering kernel sample runs these forms on every strategy too:
// support/action_cases.h.)
#include <catch2/catch.hpp>

#include <algorithm>

#include "form/parser.h"
#include "support/opencl_check.h"
#include "tune/cost_model.h"
#include "tune/tuner.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

FormCase own_element_case(const std::string &name)
{
  for (const FormCase &c : form_cases())
    if (c.name == name) return c;
  FAIL("no form case " << name);
  return {};
}

const EvalGroup *group_of(const ActionIR &ir, int function)
{
  const int g = ir.group_of_function(function);
  return g < 0 ? nullptr : &ir.groups[static_cast<size_t>(g)];
}

}  // namespace

TEST_CASE("a coefficient in its own element is its own group, counted with its own basis", "[form][ir][tune]")
{
  std::mt19937 rng(41);
  const ActionData d = make_action(own_element_case("P1 and DG0 coefficients"), 2, 3, 1, rng);
  const EvalGroup *u = group_of(d.ir, kTrialFunction), *k1 = group_of(d.ir, coefficient_function(0)), *k0 = group_of(d.ir, coefficient_function(1));
  REQUIRE((u && k1 && k0));
  CHECK(u->n_basis == 10);
  CHECK(k1->n_basis == 3);
  CHECK(k0->n_basis == 1);
  CHECK(k0->element == Element{0, 1});
  // The tables are the element's: P1's sum to 1 at every point; DG0's is 1 everywhere.
  const int Q = d.tab.n_points();
  const size_t g1 = static_cast<size_t>(d.ir.group_of_function(coefficient_function(0)));
  const size_t g0 = static_cast<size_t>(d.ir.group_of_function(coefficient_function(1)));
  for (int q = 0; q < Q; ++q) {
    double sum = 0;
    for (int j = 0; j < 3; ++j) sum += d.tab.group_tables[g1][0][static_cast<size_t>(q * 3 + j)];
    CHECK(sum == Approx(1.0).epsilon(1e-14));
    CHECK(d.tab.group_tables[g0][0][static_cast<size_t>(q)] == Approx(1.0).epsilon(1e-14));
  }
  // Eq. 12's contractions: 2 * N_deriv * Q * n per group, each with its own n.
  long long contractions = 2LL * d.ir.n_eval() * Q * d.ir.n_test_basis;
  for (const EvalGroup &g : d.ir.groups) contractions += 2LL * static_cast<long long>(g.terms.size()) * Q * g.n_basis;
  CHECK(count_flops(d.ir, Q).contractions == contractions);
  const KernelShape shape = KernelShape::from(d.ir, Q);
  for (size_t g = 0; g < d.ir.groups.size(); ++g) {
    CHECK(shape.groups[g].n == d.ir.groups[g].n_basis);
    if (!d.ir.groups[g].coordinates) CHECK(shape.groups[g].dofs == d.ir.groups[g].n_basis * d.ir.groups[g].element.components);
  }
}

TEST_CASE("the UFL spelling of a P1 and a DG0 coefficient lowers to the dialect's program", "[form][ufl]")
{
  const FormSignature sig{CellType::Triangle, Element{3, 1}, 1};
  const std::string ufl = "P3 = FiniteElement('P', triangle, 3)\nP1 = FiniteElement('P', triangle, 1)\n"
                          "Q0 = FiniteElement('DG', triangle, 0)\nu, v = TrialFunction(P3), TestFunction(P3)\n"
                          "k = Coefficient(P1)\nc = Coefficient(Q0)\na = (k + c)*u*v*dx\n";
  const std::string dialect = "k = Coefficient('k', degree=1)\nc = Coefficient('c', degree=0)\na = (k + c)*u*v*dx\n";
  const ActionIR a = lower_form(parse_form_text(ufl, "u.ufl", sig).a), b = lower_form(parse_form_text(dialect, "d.ufl", sig).a);
  REQUIRE(a.groups.size() == b.groups.size());
  for (size_t g = 0; g < a.groups.size(); ++g) CHECK(a.groups[g].element == b.groups[g].element);
  CHECK(a.quadrature_degree == 7);  // 1 + 3 + 3: the coefficient's own degree counts
  CHECK(a.quadrature_degree == b.quadrature_degree);
}

TEST_CASE("every candidate the tuner offers for own-element coefficients runs on OpenCL as the reference", "[opencl][tune][kernel]")
{
  std::mt19937 rng(43);
  for (const char *name : {"P1 and DG0 coefficients", "P2 and DG0 vector coefficients"}) {
    const ActionData d = make_action(own_element_case(name), 2, 2, 29, rng);
    TuneSettings s;
    std::size_t space = 0;
    bool truncated = false;
    std::vector<TimedCandidate> list = tuning_candidates(d.ir, d.tab.n_points(), DeviceParams{}, s, &space, &truncated);
    const std::vector<TimedCandidate> mma = tensor_core_candidates(d.ir, d.tab.n_points(), 3, 48 * 1024);
    list.insert(list.end(), mma.begin(), mma.end());
    REQUIRE(list.size() > 8);
    for (const TimedCandidate &c : list) {
      INFO(name << ": " << to_string(c.schedule));
      REQUIRE_NOTHROW(validate(c.schedule, d.ir, d.tab.n_points()));
      if (c.schedule.strategy() == Strategy::TensorCore) continue;  // CUDA only: compiled in test_nvrtc_tensor_core.cpp
      CHECK(opencl_action_error(d, c.schedule) < 1e-12);
    }
  }
}
