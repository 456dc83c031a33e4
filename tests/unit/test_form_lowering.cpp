// The shipped form files lower to the action IR (a as rank 2, F as rank 1): the
// parser produces forms the rest of femgpu accepts, in 2D and 3D.
#include <catch2/catch.hpp>

#include "ir/lower.h"
#include "test_form_util.h"

using namespace femgpu;

TEST_CASE("shipped form files lower to the action IR", "[form][parser][lower]")
{
  for (const auto &f : test::shipped_forms()) {
    for (int dim : {2, 3}) {
      if (f.only_2d && dim == 3) continue;
      INFO(f.file << " dim " << dim);
      ParsedForms p = parse_form_file(test::forms_dir() + f.file, test::signature(dim, f.vector ? dim : 1));
      CHECK_NOTHROW(lower_form(p.a));
      if (p.F) {
        LowerOptions residual;
        residual.rank = 1;
        CHECK_NOTHROW(lower_form(*p.F, residual));
      }
    }
  }
}
