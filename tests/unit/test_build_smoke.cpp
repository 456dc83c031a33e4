#include <catch2/catch.hpp>
#include "form/expr.h"
TEST_CASE("shape strings print like UFL", "[expr]") { CHECK(femgpu::shape_string({2, 3}) == "(2, 3)"); }
