// femgpu-form: parse and lower a UFL form file, print the action IR as JSON.
//
//   femgpu-form FILE.ufl --cell triangle|tetrahedron --degree K [--components C]
//               [--coordinate-degree 1|2] [--quadrature-degree Q] [--residual] [--ir]
//               [--facet F [--boundary-id I]]
//
// Stages: form file -> Form (parser) -> ActionIR (lower) -> quadrature rule (for Q)
// -> JSON on stdout; with --ir, the pointwise program listing after it.
#include <petscsys.h>

#include <cstring>
#include <iostream>
#include <string>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/ir_print.h"
#include "ir/lower.h"

namespace {

const char *kUsage =
    "usage: femgpu-form FILE.ufl --cell triangle|tetrahedron --degree K [--components C]\n"
    "                   [--coordinate-degree 1|2] [--quadrature-degree Q] [--residual] [--ir]\n"
    "                   [--facet F [--boundary-id I]]\n"
    "  Prints the lowered action IR of the form's bilinear form a (or, with --residual,\n"
    "  of the residual F, or a(w, v) - L(v) for a file with a and L) as JSON; --ir adds a\n"
    "  listing of the pointwise program. Its dx integrals, or with --facet F its ds integrals\n"
    "  (ds(I) with --boundary-id I) on local facet F of the reference cell; a form without\n"
    "  dx integrals shows its first ds domain on facet 0.\n";

struct Args {
  std::string file, cell = "triangle";
  int degree = 1, components = 1, coordinate_degree = 1, quadrature_degree = -1, facet = -1, boundary_id = -1;
  bool residual = false, listing = false;
};

int to_int(const char *flag, const char *value)
{
  char *end = nullptr;
  long v = std::strtol(value, &end, 10);
  if (!*value || *end || v < 0 || v > 1000) throw femgpu::FormError(std::string(flag) + " needs a small non-negative integer, got '" + value + "'");
  return static_cast<int>(v);
}

Args parse_args(int argc, char **argv)
{
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) throw femgpu::FormError(s + " needs a value");
      return argv[++i];
    };
    if (s == "--cell") a.cell = value();
    else if (s == "--degree") a.degree = to_int("--degree", value());
    else if (s == "--components") a.components = to_int("--components", value());
    else if (s == "--coordinate-degree") a.coordinate_degree = to_int("--coordinate-degree", value());
    else if (s == "--quadrature-degree") a.quadrature_degree = to_int("--quadrature-degree", value());
    else if (s == "--facet") a.facet = to_int("--facet", value());
    else if (s == "--boundary-id") a.boundary_id = to_int("--boundary-id", value());
    else if (s == "--residual") a.residual = true;
    else if (s == "--ir") a.listing = true;
    else if (s == "--help" || s == "-h") { std::cout << kUsage; std::exit(0); }
    else if (!s.empty() && s[0] == '-') throw femgpu::FormError("unknown option '" + s + "'");
    else if (a.file.empty()) a.file = s;
    else throw femgpu::FormError("more than one form file given");
  }
  if (a.file.empty()) throw femgpu::FormError("no form file given");
  return a;
}

int run(const Args &a)
{
  using namespace femgpu;
  FormSignature sig{cell_from_name(a.cell), Element{a.degree, a.components}, a.coordinate_degree};
  ParsedForms forms = parse_form_file(a.file, sig);
  LowerOptions lo;
  if (a.quadrature_degree >= 0) lo.quadrature_degree = a.quadrature_degree;
  if (a.residual && !forms.F) throw FormError(a.file + " defines no residual F (nor a right-hand side L)");
  if (!a.residual && !forms.has_bilinear()) throw FormError(a.file + " defines only a right-hand side L; use --residual for its kernel (F = -L)");
  lo.rank = a.residual ? 1 : 2;
  const Form &form = a.residual ? *forms.F : forms.a;
  lo.domain = integral_domains(form).at(0);
  lo.facet = lo.domain.type == IntegralDomain::Type::ExteriorFacet ? 0 : -1;
  if (a.facet >= 0) {
    lo.domain = IntegralDomain{IntegralDomain::Type::ExteriorFacet, a.boundary_id >= 0 ? std::optional<int>(a.boundary_id) : std::nullopt};
    lo.facet = a.facet;
  }
  ActionIR ir = lower_form(form, lo);
  QuadratureRule rule = tabulate_action(ir, default_share_dir()).rule;
  print_ir_json(std::cout, ir, rule.size());
  if (a.listing) print_ir_listing(std::cout, ir);
  return 0;
}

}  // namespace

int main(int argc, char **argv)
{
  if (PetscInitializeNoArguments()) return 2;
  int status = 1;
  try {
    status = run(parse_args(argc, argv));
  } catch (const femgpu::FormError &e) {
    std::cerr << "femgpu-form: " << e.what() << "\n";
    if (std::strstr(e.what(), "option") || std::strstr(e.what(), "no form file")) std::cerr << kUsage;
  } catch (const std::exception &e) {
    std::cerr << "femgpu-form: " << e.what() << "\n";
  }
  if (PetscFinalize()) return 2;
  return status;
}
