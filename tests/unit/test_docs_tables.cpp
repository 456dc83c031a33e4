// docs/petsc.md's tables of schedule words, tuning moves and tuning parameters are the
// tables the code declares (schedule_words.h, tune_moves.h, tune_params.h), so the docs
// cannot drift from -help. On a difference the test prints the generated table: paste it
// between the markers.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "schedule/schedule_words.h"
#include "tune/tune_moves.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"

using namespace femgpu;

namespace {

std::string petsc_docs()
{
  std::ifstream in(std::string(FEMGPU_SOURCE_DIR) + "/docs/petsc.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines between "<!-- generated: NAME -->" and "<!-- end: NAME -->" of docs/petsc.md.
std::string docs_section(const std::string &name)
{
  const std::string all = petsc_docs(), begin = "<!-- generated: " + name + " -->\n", end = "<!-- end: " + name + " -->";
  const size_t b = all.find(begin), e = all.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  REQUIRE(b < e);
  return all.substr(b + begin.size(), e - b - begin.size());
}

}  // namespace

TEST_CASE("docs: the schedule words table of docs/petsc.md is the table the code declares", "[docs][schedule_words]")
{
  const std::string docs = docs_section("schedule words (schedule_words_docs_table)");
  CHECK(docs == schedule_words_docs_table());
}

TEST_CASE("docs: the tuning parameters table of docs/petsc.md is the table the code declares", "[docs][tune_params]")
{
  const std::string docs = docs_section("tuning parameters (tune_params_docs_table)");
  CHECK(docs == tune_params_docs_table());
}

TEST_CASE("docs: the tuning moves table of docs/petsc.md is the table the code declares", "[docs][tune_moves]")
{
  const std::string docs = docs_section("tuning moves (tune_moves_docs_table)");
  CHECK(docs == tune_moves_docs_table());
  // and the text beside it names the default plans as the table makes them
  CHECK_THAT(petsc_docs(), Catch::Contains("`" + to_string(default_cuda_plan()) + "`"));
  CHECK_THAT(petsc_docs(), Catch::Contains("`" + to_string(default_opencl_plan()) + "`"));
}
