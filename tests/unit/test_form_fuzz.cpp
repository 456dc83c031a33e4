// Fuzz: random mutations of the shipped forms either parse or fail with FormError;
// no other exception, crash, hang or sanitizer report (run it in the ASan build).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "form/mixed_blocks.h"
#include "ir/lower.h"
#include "test_form_util.h"

using namespace femgpu;

namespace {

std::vector<std::string> shipped_texts()
{
  std::vector<std::string> texts;
  for (const auto &f : test::shipped_forms()) {
    std::ifstream in(test::forms_dir() + f.file);
    std::stringstream ss;
    ss << in.rdbuf();
    texts.push_back(ss.str());
  }
  return texts;
}

// Tokens that reach deep into the grammar and the builders, and the limits.
const std::vector<std::string> kPool = {
    "(", ")", "[", "]", "{", "}", ",", ":", ";", "=", ".", "*", "**", "/", "+", "-", "<", "==", ">=",
    "+=", "\n", "\\\n", "  ", "#", "'", "\"", "\"\"\"", "u", "v", "w", "x", "d", "a", "F", "dx", "pi", "0", "1",
    "-1", "2.5", "1e308", "1e-400", "99999999999999999999", "9223372036854775807", "2**63", "/0", "[-1]",
    "[0, 1]", ".T", "grad(", "inner(", "derivative(", "Coefficient(", "Constant(", "Identity(d)", "as_matrix([[",
    "]]", "as_tensor(", "conditional(", "lt(", "variable(", "diff(", "sym(", "det(", "dx(degree=", "metadata=",
    "{\"quadrature_degree\": ", "components=", "degree=", "def ", "lambda ", "not ", "if ", "import ", "from ",
    "and ", "x[0]", "u*v*dx", "F = ", "a = ", "\t", "\r\n", "TestFunction()", "abs(", "sqrt(", "cross(",
    "ds", "dS", "*ds", "w*w*", "u*u*", "\xc3\xa9", "\xe2\x82", "\xff", std::string(1, '\0'),
    // UFL syntax: elements, functions on them, free indices.
    "i", "j", "[i]", "[i, j]", "[j, i]", "[i, i]", ".dx(", ".dx(i)", ".dx(0)", ".dx(i, j)", "Dx(", "indices(2)",
    "i, j = ", "Index()", "as_tensor(", ", (i, j))", ", i)", "as_vector(", "as_matrix(", "FiniteElement(",
    "VectorElement(", "MixedElement(", "\"Lagrange\", ", "triangle", "tetrahedron", ", 2)", "dim=", "element",
    "TrialFunction(element)", "TestFunctions(", "Coefficient(element)", "Constant(triangle)", "(2,)", "shape=",
    "split(", "Mesh(", "FunctionSpace(", " * ", "len(u)"};

// A form on a mixed element lowered as femgpu's multi-field Mat does (block by block, the
// zero blocks left out, the off-diagonal ones as residuals); any other form whole.
void lower_mixed_or_whole(const Form &a)
{
  const int n = static_cast<int>(mixed_fields(a).size());
  if (n == 0) {
    lower_form(a);
    return;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const Form block = mixed_block(a, i, j);
      if (is_zero_form(block)) continue;
      LowerOptions lo;
      lo.rank = i == j ? 2 : 1;
      lower_form(block, lo);
    }
}

std::string mutate(std::string s, std::mt19937 &rng)
{
  auto pick = [&rng](size_t n) { return n == 0 ? size_t{0} : std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  switch (pick(6)) {
    case 0: {  // delete 1..8 characters
      size_t at = pick(s.size() + 1);
      s.erase(at, 1 + pick(8));
      break;
    }
    case 1: s.insert(pick(s.size() + 1), kPool[pick(kPool.size())]); break;
    case 2: {  // random bytes, including NUL and non-ASCII
      std::string bytes;
      for (size_t k = 0, n = 1 + pick(4); k < n; ++k) bytes.push_back(static_cast<char>(pick(256)));
      s.insert(pick(s.size() + 1), bytes);
      break;
    }
    case 3:
      if (!s.empty()) std::swap(s[pick(s.size())], s[pick(s.size())]);
      break;
    case 4: {  // swap two chunks of equal length
      size_t n = 1 + pick(6);
      if (s.size() < 2 * n) break;
      size_t i = pick(s.size() - n), j = pick(s.size() - n);
      std::string a = s.substr(i, n), b = s.substr(j, n);
      s.replace(i, n, b);
      s.replace(j, n, a);
      break;
    }
    default: {  // duplicate a chunk (repeats lines, brackets, operators)
      size_t i = pick(s.size() + 1), n = pick(40);
      s.insert(pick(s.size() + 1), s.substr(i, n));
      break;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("fuzzed form files parse or throw FormError", "[form][parser][fuzz]")
{
  const std::vector<std::string> texts = shipped_texts();
  REQUIRE(texts.size() == test::shipped_forms().size());
  std::mt19937 rng(20240601u);
  const FormSignature sigs[] = {test::signature(2, 1), test::signature(3, 1), test::signature(2, 2, 2),
                                test::signature(3, 3)};
  int parsed = 0, rejected = 0;
  const int kCases = 12000;
  for (int n = 0; n < kCases; ++n) {
    std::string text = texts[rng() % texts.size()];
    for (unsigned m = 0, count = 1 + rng() % 4; m < count; ++m) text = mutate(text, rng);
    const FormSignature &sig = sigs[rng() % 4];
    try {
      parse_form_text(text, "fuzz.ufl", sig);
      ++parsed;
    } catch (const FormError &e) {
      // Every error carries the location prefix.
      if (std::string(e.what()).rfind("fuzz.ufl:", 0) != 0) FAIL("unlocated error: " << e.what() << "\n" << text);
      ++rejected;
    } catch (const std::exception &e) {
      FAIL("non-FormError exception " << e.what() << " for input:\n" << text);
    }
  }
  CHECK(parsed + rejected == kCases);
  CHECK(parsed > 100);  // the mutations are not all fatal: some still exercise a full parse
  CHECK(rejected > 1000);
  WARN("fuzz: " << parsed << " parsed, " << rejected << " rejected");
}

// Parses `text`, then lowers a and F as MatFEMGPUSetUp would; every FormError must be
// located in the file. Returns whether the text parsed with a residual F.
bool parse_and_lower(const std::string &text, const FormSignature &sig)
{
  try {
    ParsedForms p = parse_form_text(text, "fuzz.ufl", sig);
    lower_form(p.a);
    if (!p.F) return false;
    LowerOptions residual;
    residual.rank = 1;
    lower_form(*p.F, residual);
    return true;
  } catch (const FormError &e) {
    if (std::string(e.what()).rfind("fuzz.ufl:", 0) != 0) FAIL("unlocated error: " << e.what() << "\n" << text);
  } catch (const std::exception &e) {
    FAIL("non-FormError exception " << e.what() << " for input:\n" << text);
  }
  return false;
}

TEST_CASE("fuzzed residual forms parse and lower, or throw located FormError", "[form][parser][fuzz]")
{
  // The files that define a residual F (its Jacobian a is implied), found by content.
  std::vector<std::pair<std::string, bool>> residuals;  // text, vector element
  const std::vector<std::string> texts = shipped_texts();
  for (size_t k = 0; k < texts.size(); ++k)
    if (texts[k].find("\nF = ") != std::string::npos) residuals.emplace_back(texts[k], test::shipped_forms()[k].vector);
  REQUIRE(residuals.size() >= 2);  // hyperelasticity and nonlinear_diffusion
  std::mt19937 rng(20240917u);
  int with_residual = 0;
  const int kCases = 1500;
  for (int n = 0; n < kCases; ++n) {
    const auto &[seed, vector] = residuals[static_cast<size_t>(n) % residuals.size()];
    std::string text = seed;
    for (unsigned m = 0, count = 1 + rng() % 3; m < count; ++m) text = mutate(text, rng);
    int dim = 2 + n % 2;
    with_residual += parse_and_lower(text, test::signature(dim, vector ? dim : 1, 1 + n % 2));
  }
  CHECK(with_residual > 100);  // many mutants still reach the residual and its Jacobian
  WARN("residual fuzz: " << with_residual << " of " << kCases << " lowered with F");
}

// The FEniCS-style files and a mixed (Stokes) form: mutants parse and lower, or fail
// with a located FormError, on the P2 triangle field they declare.
TEST_CASE("fuzzed UFL-syntax form files parse and lower, or throw located FormError", "[form][parser][fuzz][ufl]")
{
  std::vector<std::string> seeds;
  for (const auto &entry : std::filesystem::directory_iterator(test::forms_dir() + "ufl")) {
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    seeds.push_back(ss.str());
  }
  seeds.push_back("P2 = VectorElement('Lagrange', triangle, 2)\nP1 = FiniteElement('Lagrange', triangle, 1)\n"
                  "W = P2 * P1\n(u, p) = TrialFunctions(W)\n(v, q) = TestFunctions(W)\n"
                  "a = inner(grad(u), grad(v))*dx - div(v)*p*dx - q*div(u)*dx\n");
  seeds.push_back("e = VectorElement('P', triangle, 2)\nu, v = TrialFunction(e), TestFunction(e)\n"
                  "c = Constant(triangle, (2, 2))\nA = as_tensor(c[i, k]*grad(u)[k, j], (i, j))\n"
                  "a = A[i, j]*v[i].dx(j)*dx(degree=3)\n");
  REQUIRE(seeds.size() >= 8);
  std::mt19937 rng(20261201u);
  int lowered = 0;
  const int kCases = 3000;
  for (int n = 0; n < kCases; ++n) {
    std::string text = seeds[static_cast<size_t>(n) % seeds.size()];
    for (unsigned m = 0, count = 1 + rng() % 3; m < count; ++m) text = mutate(text, rng);
    const bool vector = text.find("VectorElement") != std::string::npos;
    try {
      ParsedForms p = parse_form_text(text, "fuzz.ufl", test::signature(2, vector ? 2 : 1, 2));
      if (p.has_bilinear()) lower_mixed_or_whole(p.a);
      ++lowered;
    } catch (const FormError &e) {
      if (std::string(e.what()).rfind("fuzz.ufl:", 0) != 0) FAIL("unlocated error: " << e.what() << "\n" << text);
    } catch (const std::exception &e) {
      FAIL("non-FormError exception " << e.what() << " for input:\n" << text);
    }
  }
  CHECK(lowered > 300);  // many mutants still reach lowering
  WARN("UFL fuzz: " << lowered << " of " << kCases << " parsed and lowered");
}

TEST_CASE("fuzzed interpolation expressions parse or throw FormError", "[form][parser][fuzz]")
{
  const std::string seeds[] = {"x[0]**2*x[1] + 1", "as_vector([x[1], -x[0]])",
                               "conditional(lt(abs(x[0] - 0.5), 0.25), sin(pi*x[1]), exp(-x[d-1]))"};
  std::mt19937 rng(7u);
  for (int n = 0; n < 3000; ++n) {
    std::string text = seeds[n % 3];
    for (unsigned m = 0, count = 1 + rng() % 3; m < count; ++m) text = mutate(text, rng);
    try {
      parse_expression(text, "e", 2 + n % 2);
    } catch (const FormError &) {
    } catch (const std::exception &e) {
      FAIL("non-FormError exception " << e.what() << " for input:\n" << text);
    }
  }
}

TEST_CASE("pathological inputs are bounded", "[form][parser][fuzz]")
{
  const FormSignature sig = test::signature(2, 1);
  const std::string cases[] = {
      std::string(100000, '('),
      "a = " + std::string(50000, '-') + "u*v*dx",
      "a = u" + std::string(20000, '[') ,
      "a = " + std::string(5000, '[') + std::string(5000, ']'),
      "a = u" + std::string(30000, '.') ,
      "a = 2" + std::string(2000, '*') + "2",
      "a = 2**2**2**2**2**2",
      "a = (" + std::string(10, '\n') + "u*v*dx",
      "a = 1\\",
      std::string("a = u*v*dx\0b = 1", 16),
      "a = u*v*dx\n" + std::string(120000, '\n'),
  };
  for (const std::string &c : cases) {
    try {
      parse_form_text(c, "p.ufl", sig);
    } catch (const FormError &) {
    }
  }
  std::string many_tokens = "a = u*v*dx\nb = 0";
  for (int i = 0; i < 60000; ++i) many_tokens += "+1";
  CHECK_THROWS_WITH(parse_form_text(many_tokens, "p.ufl", sig), Catch::Contains("too many tokens"));
}
