// femgpu-form, run as a user runs it, reproduces the paper's Table 3 rows from the
// shipped form files: n, N_deriv, N_eval and Q.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <memory>
#include <regex>
#include <string>

namespace {

std::string run(const std::string &args, int *status)
{
  std::string cmd = std::string(FEMGPU_FORM_TOOL) + " " + args + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  *status = pclose(pipe.release());
  return out;
}

std::string key(const std::string &json, const std::string &name)
{
  std::smatch m;
  std::regex re("\"" + name + "\": ([^,\\n]+)");
  return std::regex_search(json, m, re) ? m[1].str() : "<missing>";
}

}  // namespace

TEST_CASE("femgpu-form reproduces the paper's Table 3", "[tool][paper]")
{
  struct Row {
    const char *form, *cell;
    int degree, components;
    const char *n, *n_deriv;
    int n_eval, Q;
  };
  const Row rows[] = {
      {"mass", "triangle", 3, 1, "[10]", "[1]", 1, 12},
      {"mass", "triangle", 4, 1, "[15]", "[1]", 1, 16},
      {"helmholtz", "triangle", 4, 1, "[15]", "[3]", 3, 16},
      {"helmholtz", "tetrahedron", 4, 1, "[35]", "[4]", 4, 44},
      {"hyperelasticity", "triangle", 6, 2, "[28]", "[8]", 4, 79},
      {"elasticity", "tetrahedron", 4, 3, "[35]", "[9]", 9, 23},
  };
  for (const Row &r : rows) {
    int status = 0;
    std::string out = run(std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/" + r.form + ".ufl --cell " + r.cell +
                              " --degree " + std::to_string(r.degree) + " --components " + std::to_string(r.components),
                          &status);
    INFO(r.form << " " << r.cell << " P" << r.degree << "\n" << out);
    REQUIRE(status == 0);
    CHECK(key(out, "n_trial") == r.n);
    CHECK(key(out, "n_test") == std::string(r.n).substr(1, std::string(r.n).size() - 2));
    CHECK(key(out, "N_deriv") == r.n_deriv);
    CHECK(key(out, "N_eval") == std::to_string(r.n_eval));
    CHECK(key(out, "Q") == std::to_string(r.Q));
    CHECK(std::stol(key(out, "flops_per_cell")) > 0);
  }
}

TEST_CASE("femgpu-form reports bad input with a location and a non-zero exit", "[tool]")
{
  int status = 0;
  std::string out = run(std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/laplace.ufl --cell hexahedron --degree 1", &status);
  CHECK(status != 0);
  CHECK(out.find("unsupported cell 'hexahedron'") != std::string::npos);
  out = run("/nonexistent/form.ufl --cell triangle --degree 1", &status);
  CHECK(status != 0);
  CHECK(out.find("/nonexistent/form.ufl") != std::string::npos);
  out = run(std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/elasticity.ufl --cell triangle --degree 2", &status);
  CHECK(status != 0);  // a vector form on a scalar element: a located shape error
  CHECK(out.find("elasticity.ufl:") != std::string::npos);
}

TEST_CASE("femgpu-form shows a form's ds integrals on one local facet", "[tool][facet]")
{
  const std::string data = std::string(FEMGPU_SOURCE_DIR) + "/tests/petsc/data/";
  int status = 0;
  // Robin: dx by default, ds on facet 1 with --facet 1 (a 1D rule on the facet: Q = 2 for degree 2).
  std::string out = run(data + "robin.ufl --cell triangle --degree 1", &status);
  CHECK(status == 0);
  CHECK(key(out, "facet") == "<missing>");
  out = run(data + "robin.ufl --cell triangle --degree 1 --facet 1", &status);
  CHECK(status == 0);
  CHECK(key(out, "integrals") == "\"ds\"");
  CHECK(key(out, "facet") == "1");
  CHECK(key(out, "quadrature_degree") == "2");
  CHECK(key(out, "Q") == "2");
  // A form of ds(2) integrals only shows them on facet 0 by default.
  out = run(data + "boundary_mass_label2.ufl --cell tetrahedron --degree 2", &status);
  CHECK(status == 0);
  CHECK(key(out, "integrals") == "\"ds(2)\"");
  CHECK(key(out, "facet") == "0");
  out = run(data + "boundary_mass_label2.ufl --cell tetrahedron --degree 2 --facet 1", &status);
  CHECK(status != 0);
  CHECK(out.find("the form has no ds integrals") != std::string::npos);
}
