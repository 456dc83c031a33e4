// Shared helpers for the parser tests: signatures, shipped-form paths, DAG queries.
#pragma once

#include <string>
#include <vector>

#include "form/form.h"
#include "form/parse_value.h"
#include "form/parser.h"

namespace femgpu::test {

inline FormSignature signature(int dim, int components, int degree = 1)
{
  FormSignature s;
  s.cell = dim == 2 ? CellType::Triangle : CellType::Tetrahedron;
  s.element = Element{degree, components};
  return s;
}

inline std::string forms_dir() { return std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/"; }

struct ShippedForm {
  std::string file;  // relative to forms_dir()
  bool vector;       // expects d components
  bool only_2d;
};

inline const std::vector<ShippedForm> &shipped_forms()
{
  static const std::vector<ShippedForm> forms = {
      {"mass.ufl", false, false},
      {"laplace.ufl", false, false},
      {"helmholtz.ufl", false, false},
      {"elasticity.ufl", true, false},
      {"hyperelasticity.ufl", true, false},
      {"extra/nonlinear_diffusion.ufl", false, false},
      {"extra/anisotropic_diffusion.ufl", false, true},
      {"extra/conditional_reaction.ufl", false, false},
      {"extra/convection_diffusion.ufl", false, false},
  };
  return forms;
}

inline bool form_contains_argument(const Form &f, int number)
{
  for (const Integral &i : f.integrals)
    if (parse::contains_argument(i.integrand, number)) return true;
  return false;
}

}  // namespace femgpu::test
