// A form moved to another degree (on_element, what a p-multigrid level lowers) is the form
// its text gives when read for that degree: the same IR and byte-identical kernels, for
// every form file the project ships and tests with, scalar and vector, 2D and 3D, from the
// finest degree to every lower one the text can be read for. Coefficients declared in
// elements of their own stay there; those made without one move with u.
#include <catch2/catch.hpp>

#include <filesystem>

#include "fem/action_tables.h"
#include "form/form_file.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"

using namespace femgpu;

namespace {

// The kernel of one form, or the lowering's error: either must agree between the two ways.
std::string lowered(const Form &form, int rank)
{
  try {
    LowerOptions lo;
    lo.rank = rank;
    const ActionIR ir = lower_form(form, lo);
    const Tabulation tab = tabulate_action(ir, default_share_dir());
    return kernel::emit_cuda(kernel::build_kernel(ir, tab, Schedule::single_cell_per_work_item(32)));
  } catch (const std::exception &e) {
    return std::string("error: ") + e.what();
  }
}

std::vector<std::filesystem::path> form_files()
{
  std::vector<std::filesystem::path> out;
  const std::string root = FEMGPU_SOURCE_DIR;
  for (const char *dir : {"/share/femgpu/forms", "/share/femgpu/forms/extra", "/tests/petsc/data", "/tests/gpu"})
    for (const auto &e : std::filesystem::directory_iterator(root + dir))
      if (e.path().extension() == ".ufl") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a form moved to a lower degree is the form read for that degree", "[form][pmg]")
{
  int compared = 0;
  for (const std::filesystem::path &file : form_files()) {
    std::string text;
    try {
      text = read_form_file(file.string());
    } catch (const std::exception &) {
      continue;  // a file the reader refuses (a NUL byte): no form to move
    }
    for (int dim : {2, 3})
      for (int components : {1, dim}) {
        const CellType cell = dim == 2 ? CellType::Triangle : CellType::Tetrahedron;
        const int finest = dim == 2 ? 4 : 3;
        const FormSignature fine{cell, Element{finest, components}, 1};
        ParsedForms from_fine;
        try {
          from_fine = parse_form_text(text, file.filename().string(), fine);
        } catch (const std::exception &) {
          continue;  // not a form for this field (a shape, a malformed file): nothing to move
        }
        for (int degree = 1; degree < finest; ++degree) {
          const FormSignature level{cell, Element{degree, components}, 1};
          ParsedForms read;
          try {
            read = parse_form_text(text, file.filename().string(), level);
          } catch (const FormError &) {
            // Read for this degree alone the text can mean something else: a coefficient
            // declared in P1 is in u's element at P1 and the unknown of F is ambiguous.
            // The moved form keeps the finest level's reading; nothing to compare.
            continue;
          }
          INFO(file.filename().string() << ", " << dim << "D, " << components << " component(s), P" << finest << " -> P" << degree);
          if (read.has_bilinear()) {
            CHECK(lowered(on_element(from_fine.a, level), 2) == lowered(read.a, 2));
            ++compared;
          }
          if (read.F) CHECK(lowered(on_element(*from_fine.F, level), 1) == lowered(*read.F, 1));
        }
      }
  }
  CHECK(compared > 100);
}

TEST_CASE("on_element moves coefficients made without an element and keeps declared ones", "[form][pmg]")
{
  const FormSignature p3{CellType::Tetrahedron, Element{3, 1}, 1}, p1{CellType::Tetrahedron, Element{1, 1}, 1};
  const ParsedForms forms = parse_form_text(
      "from ufl import *\nw = Coefficient(\"w\")\nk = Coefficient(\"k\", degree=2)\nc = Coefficient(\"c\", degree=0)\n"
      "a = k*c*w*inner(grad(u), grad(v))*dx\n",
      "t.ufl", p3);
  const Form moved = on_element(forms.a, p1);
  REQUIRE(moved.coefficients.size() == 3);
  CHECK(moved.coefficients[0].element == Element{1, 1});  // w: u's element, moved
  CHECK(moved.coefficients[1].element == Element{2, 1});  // k: declared P2, kept
  CHECK(moved.coefficients[2].element == Element{0, 1});  // c: declared DG0, kept
  CHECK(moved.signature.element == Element{1, 1});
  CHECK_THROWS_WITH(on_element(forms.a, FormSignature{CellType::Tetrahedron, Element{1, 3}, 1}), Catch::Contains("only the degree may change"));
  CHECK_THROWS_WITH(on_element(forms.a, FormSignature{CellType::Triangle, Element{1, 1}, 1}), Catch::Contains("only the degree may change"));
}
