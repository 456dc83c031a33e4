// Tuning as a plan (tune/tune_plan.h): the plan's text reads back, a bad plan is refused
// naming its word, and the golden replay: the default CUDA plan, run on the timings the
// H200 recorded (records/runs/h200_retune_*_ea93f8a.txt, -monitor lines),
// picks the winner the tuner picked there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "fem/action_tables.h"
#include "fem/share_dir.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "tune/tune_moves.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"

using namespace femgpu;

TEST_CASE("tune plan: the default plans print and read back", "[tune_plan]")
{
  const std::string cuda = to_string(default_cuda_plan());
  CHECK(cuda ==
        "first; tensor_core n=6; assembled; register_bound n=1 + quad_steps n=1 + own_dofs n=1 + staged_scatter n=2; shared_dofs n=2 + warp_scatter n=2 + interleaved n=2; own_dofs n=2 + half_group n=2 + "
        "register_bound n=2 + cell_value_bound n=2; local_search n=2; bound_best");
  CHECK(to_string(parse_tune_plan(cuda)) == cuda);
  CHECK(to_string(default_opencl_plan()) == "first; local_search n=2");
  // A move whose table count is 0 is left out of the default plans, and so is a round
  // left empty; a count the default plan gives stays.
  MoveTable off = tune_moves();
  for (TuneMove &m : off.moves)
    if (std::string(m.name) == "tensor_core" || std::string(m.name) == "warp_scatter" || std::string(m.name) == "register_bound") m.default_n = 0;
  CHECK(to_string(default_cuda_plan(off)) ==
        "first; assembled; register_bound n=1 + quad_steps n=1 + own_dofs n=1 + staged_scatter n=2; shared_dofs n=2 + interleaved n=2; own_dofs n=2 + half_group n=2 + "
        "cell_value_bound n=2; local_search n=2; bound_best");
  CHECK(to_string(parse_tune_plan(" first ;local_search")) == "first; local_search n=1");
}

TEST_CASE("tune plan: a plan that cannot run is refused, naming what", "[tune_plan]")
{
  auto refused = [](const std::string &text, const std::string &named) {
    try {
      (void)parse_tune_plan(text);
    } catch (const std::invalid_argument &e) {
      return std::string(e.what()).find(named) != std::string::npos;
    }
    return false;
  };
  CHECK(refused("first; twirl n=2", "twirl"));
  CHECK(refused("first; shared_dofs n=-1", "n=-1"));
  CHECK(refused("first; shared_dofs n=2x", "n=2x"));
  CHECK(refused("first; bound_best n=2", "n=2"));
  CHECK(refused("first; assembled n=1", "n=1"));
  CHECK(refused("shared_dofs n=2", "first"));
  CHECK(refused("first; shared_dofs n=2 +", "empty"));
}

// What run_plan hands each round's timer as its budget: the rounds it timed, in order.
static std::vector<double> round_budgets(const std::string &plan, double budget, double first_share)
{
  FormSignature sig{CellType::Triangle, Element{2, 1}, 1};
  const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/mass.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  TuneSettings settings;
  settings.budget_seconds = budget;
  settings.first_round_share = first_share;
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.device.beta_global = 4.47e12, ctx.device.beta_local = 32.94e12, ctx.device.beta_ldg = 33.03e12, ctx.device.flops_peak = 33.02e12;
  ctx.device.local_max_bytes = 233472, ctx.device.local_max_per_group = 232448;
  ctx.device.sg_sat_global = 12, ctx.device.sg_sat_local = 5;
  ctx.shared_limit = 232448;
  ctx.settings = &settings;
  std::vector<double> seen;
  TuneReport report;
  const RoundTimer time = [&](TuneReport *into, std::vector<TimedCandidate> candidates, bool, double round_budget) {
    seen.push_back(round_budget);
    TuneReport round;
    round.candidates = std::move(candidates);
    for (TimedCandidate &c : round.candidates) c.median_ms = c.mean_ms = 1.0 + static_cast<double>(into->candidates.size() + seen.size()), c.runs = 1;
    append_round(into, std::move(round));
  };
  run_plan(parse_tune_plan(plan), ctx, &report, time);
  return seen;
}

TEST_CASE("tune plan: with a budget the first round stops at its share, every later round at the budget", "[tune_plan]")
{
  // first and tensor_core are timed as one round under a budget; assembled offers the
  // assembled operator (mass has no coefficient), shared_dofs twins the tiled kernels.
  const std::string plan = "first; tensor_core n=2; assembled; shared_dofs n=1";
  CHECK(round_budgets(plan, 10, 0.8) == std::vector<double>{8, 10, 10});
  CHECK(round_budgets(plan, 10, 1) == std::vector<double>{10, 10, 10});
  CHECK(round_budgets(plan, 0, 0.8) == std::vector<double>{0, 0, 0, 0});  // no budget: nothing merged, no ends
  CHECK(round_budgets("first", 10, 0.5) == std::vector<double>{10});      // one round: it has the whole budget
}

TEST_CASE("tune plan: the first round's share is a tuning parameter from 0.05 to 1", "[tune_plan]")
{
  CHECK(with_plan(TuneSettings{}, parse_tune_plan("param first_round_share=0.6")).first_round_share == 0.6);
  CHECK(TuneSettings{}.first_round_share == 0.8);
  CHECK_THROWS_AS(parse_tune_plan("param first_round_share=0"), TuneParamError);
  CHECK_THROWS_AS(parse_tune_plan("param first_round_share=1.5"), TuneParamError);
}

TEST_CASE("tune plan: the assembled move offers the assembled operator only where its matrix is fixed", "[tune_plan][assembled]")
{
  auto offered = [](const char *form, int components, Precision p) {
    FormSignature sig{CellType::Tetrahedron, Element{1, components}, 1};
    const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
    const std::vector<TimedCandidate> c = assembled_candidates(ir, 4, p);
    return c.size() == 1 && c[0].schedule.strategy() == Strategy::Assembled;
  };
  CHECK(offered("mass", 1, Precision::FP64));
  CHECK(offered("elasticity", 3, Precision::FP64));
  CHECK_FALSE(offered("hyperelasticity", 3, Precision::FP64));  // coefficients: its matrix follows the state
  CHECK_FALSE(offered("mass", 1, Precision::FP32));
}

namespace {

struct Recorded {
  double ms = std::numeric_limits<double>::infinity();
  int registers = 0, local_bytes = 0;
  long long shared_bytes = 0;
};

struct RecordedCase {
  std::map<std::string, Recorded> timed;  // by schedule text
  std::string winner;
};

// One -monitor line "    <schedule>: <ms> ms (...), <r> regs, <b> B spill, <s> B shared"
// (or "    <schedule>: failed ...") into c.timed; false for any other line.
bool read_timed(const std::string &line, RecordedCase *c)
{
  const auto colon = line.find(": ");
  if (line.rfind("    ", 0) != 0 || colon == std::string::npos) return false;
  Recorded r;
  std::istringstream rest(line.substr(colon + 2));
  if (!(rest >> r.ms)) r.ms = std::numeric_limits<double>::infinity();  // failed
  const auto regs = line.find(" regs, ");
  if (regs != std::string::npos) {
    r.registers = std::stoi(line.substr(line.rfind(", ", regs) + 2));
    r.local_bytes = std::stoi(line.substr(regs + 7));
  }
  const auto shared = line.rfind(", ", line.find(" B shared"));
  if (shared != std::string::npos && line.find(" B shared") != std::string::npos) r.shared_bytes = std::stoll(line.substr(shared + 2));
  c->timed[line.substr(4, colon - 4)] = r;
  return true;
}

// The schedule at the end of a result line "<op> <dim> <degree> ... <schedule>".
std::string result_schedule(const std::string &line)
{
  for (const char *kind : {"scpwi ", "tiled ", "mma "})
    if (line.find(kind) != std::string::npos) return line.substr(line.find(kind));
  return "";
}

// The -monitor lines of the case "=== -ops <op> -dims <dim> -min_degree <degree> ..." in
// `log` (records/runs/), and its result line.
RecordedCase read_case(const std::string &log, const std::string &op, int dim, int degree)
{
  std::ifstream in(std::string(FEMGPU_SOURCE_DIR) + "/records/runs/" + log);
  REQUIRE(in);
  const std::string header = "=== -ops " + op + " -dims " + std::to_string(dim) + " -min_degree " + std::to_string(degree) + " ";
  RecordedCase c;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("===", 0) == 0) inside = line.rfind(header, 0) == 0;
    if (!inside || read_timed(line, &c)) continue;
    if (line.rfind(op + " ", 0) == 0) c.winner = result_schedule(line);
  }
  return c;
}

// Every case of a femgpu-bench -monitor log (the candidate lines come before their case's
// result line "<op> <dim> <degree> ..."), keyed "op dim degree".
std::map<std::string, RecordedCase> read_bench_log(const std::string &path)
{
  std::ifstream in(path);
  REQUIRE(in);
  std::map<std::string, RecordedCase> cases;
  RecordedCase c;
  for (std::string line; std::getline(in, line);) {
    if (read_timed(line, &c)) continue;
    std::istringstream row(line);
    std::string op;
    int dim = 0, degree = 0;
    if (line.empty() || line[0] == ' ' || !(row >> op >> dim >> degree) || result_schedule(line).empty()) continue;
    c.winner = result_schedule(line);
    cases[op + " " + std::to_string(dim) + " " + std::to_string(degree)] = c;
    c = RecordedCase{};
  }
  return cases;
}

// The winner the default CUDA plan picks when each candidate's time is the one recorded
// (a candidate the log does not hold was not timed there: it cannot win).
std::string replay(const RecordedCase &rec, const std::string &op, int dim, int degree, const std::string &plan = "")
{
  const bool vector = op == "elasticity" || op == "hyperelasticity";
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, vector ? dim : 1}, 1};
  const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + op + ".ufl", sig).a);
  // The recorded kernels ran at the rule's points (before compressed points).
  const Tabulation tab = tabulate_action(ir, default_share_dir(), Points::Rule);
  TuneSettings settings;
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.device.beta_global = 4.47e12, ctx.device.beta_local = 32.94e12;  // as probed in the log
  ctx.device.beta_ldg = 33.03e12, ctx.device.flops_peak = 33.02e12;    // bench/h200_device_params.json
  ctx.device.local_max_bytes = 233472, ctx.device.local_max_per_group = 232448;
  ctx.device.sg_sat_global = 12, ctx.device.sg_sat_local = 5;
  ctx.shared_limit = 232448;
  ctx.settings = &settings;
  TuneReport report;
  const RoundTimer time = [&](TuneReport *into, std::vector<TimedCandidate> candidates, bool, double) {
    TuneReport round;
    round.candidates = std::move(candidates);
    time_candidates(
        &round,
        [&](std::size_t i) {
          const auto it = rec.timed.find(to_string(round.candidates[i].schedule));
          if (it == rec.timed.end() || !std::isfinite(it->second.ms)) throw std::runtime_error("not recorded");
          TimedCandidate t;
          t.median_ms = t.mean_ms = it->second.ms;
          t.runs = 1;
          t.registers = it->second.registers, t.local_bytes = it->second.local_bytes, t.shared_bytes = it->second.shared_bytes;
          return t;
        },
        settings);
    append_round(into, std::move(round));
  };
  run_plan(plan.empty() ? default_cuda_plan() : parse_tune_plan(plan), ctx, &report, time);
  return report.best >= 0 ? to_string(report.candidates[static_cast<std::size_t>(report.best)].schedule) : "none";
}

}  // namespace

TEST_CASE("tune plan: the default plan picks the H200's winners on recorded timings", "[tune_plan]")
{
  struct Case {
    const char *log, *op;
    int dim, degree;
  };
  const Case cases[] = {
#include "tune_plan_golden_cases.inc"
  };
  int missed_by_first = 0;
  for (const Case &k : cases) {
    const RecordedCase rec = read_case(k.log, k.op, k.dim, k.degree);
    INFO(k.log << ": " << k.op << " " << k.dim << "D P" << k.degree << ", " << rec.timed.size() << " timed");
    if (rec.winner.empty()) {
      WARN("no winner recorded (the case ran past its limit)");
      continue;
    }
    CHECK(replay(rec, k.op, k.dim, k.degree) == rec.winner);
    if (replay(rec, k.op, k.dim, k.degree, "first") != rec.winner) ++missed_by_first;
  }
  // The rounds after the first matter: the first list alone misses most of these winners.
  CHECK(missed_by_first >= 10);
}

TEST_CASE("tune plan: with no budget the default plan picks the unbounded tuner's winners on the H200's db38b28 timings", "[tune_plan]")
{
  // The runs that timed the whole plan of 2598b12 (db38b28's kernels) on an H200, 47
  // cases: a plan change that loses one of their winners shows here (a candidate the
  // logs do not hold was not timed there and cannot win).
  const std::string folder = std::string(FEMGPU_SOURCE_DIR) + "/records/h200_70_cases_db38b28/unbounded_2598b12/";
  int cases = 0, missed_without_twins = 0;
  for (const char *log : {"bench_elasticity_2_2_8_6.log", "bench_elasticity_3_2_8_6.log", "bench_helmholtz_2_4_8_6.log", "bench_helmholtz_3_3_8_6.log",
                          "bench_hyperelasticity_2_2_8_6.log", "bench_hyperelasticity_2_8_8_6.log", "bench_hyperelasticity_3_2_8_6.log",
                          "bench_laplace_2_4_8_6.log", "bench_laplace_3_3_8_6.log", "bench_mass_2_5_6_6.log", "bench_mass_2_7_7_6.log",
                          "bench_mass_2_8_8_6.log", "bench_mass_3_4_8_5.log", "bench_mass_3_6_8_6.log"})
    for (const auto &[name, rec] : read_bench_log(folder + log)) {
      std::istringstream words(name);
      std::string op;
      int dim = 0, degree = 0;
      words >> op >> dim >> degree;
      INFO(log << ": " << name << ", " << rec.timed.size() << " timed");
      CHECK(replay(rec, op, dim, degree) == rec.winner);
      if (replay(rec, op, dim, degree, "first; tensor_core n=6") != rec.winner) ++missed_without_twins;
      ++cases;
    }
  CHECK(cases == 47);
  // The twins matter here: without them the plan misses 22 of these winners.
  CHECK(missed_without_twins >= 15);
}

// With an identity test table (mass: Tabulation::test_identity) the tensor-core move takes
// kIdentityMmaShapes and the quad_steps move makes no twin (the kernel has no quadrature
// product: the twin would be the same kernel timed twice); without it, kMmaShapes and the
// twin of the fastest tensor-core kernel.
TEST_CASE("tune plan: an identity test table takes its own tensor-core shapes and no quad=steps twin", "[tune_plan][mma]")
{
  FormSignature sig{CellType::Triangle, Element{4, 1}, 1};
  const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/mass.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  REQUIRE(tab.test_identity);
  TuneSettings settings;
  auto timed_schedules = [&](bool identity) {
    PlanContext ctx;
    ctx.ir = &ir;
    ctx.Q = tab.n_points();
    ctx.shared_limit = 232448;
    ctx.settings = &settings;
    ctx.test_identity = identity;
    TuneReport report;
    // every tensor-core kernel faster than anything else, the first fastest of all
    const RoundTimer time = [&](TuneReport *into, std::vector<TimedCandidate> candidates, bool, double) {
      TuneReport round;
      round.candidates = std::move(candidates);
      for (TimedCandidate &c : round.candidates) {
        c.median_ms = c.mean_ms = (c.schedule.strategy() == Strategy::TensorCore ? 1.0 : 5.0) + 0.01 * static_cast<double>(into->candidates.size());
        c.runs = 1;
      }
      append_round(into, std::move(round));
    };
    run_plan(parse_tune_plan("first; tensor_core n=6; quad_steps n=1"), ctx, &report, time);
    std::vector<Schedule> mma;
    for (const TimedCandidate &c : report.candidates)
      if (c.schedule.strategy() == Strategy::TensorCore) mma.push_back(c.schedule);
    return mma;
  };
  const int q8 = (tab.n_points() + 7) / 8 * 8;
  auto capped = [&](MmaSizes m) {
    m.quad_tile = std::min(m.quad_tile, q8);
    return m;
  };
  const std::vector<Schedule> identity = timed_schedules(true);
  REQUIRE(!identity.empty());
  CHECK(identity.front().mma() == capped(kIdentityMmaShapes.front()));
  for (const Schedule &s : identity) CHECK(s.mma().quad_order == MmaQuadOrder::Rows);
  const std::vector<Schedule> other = timed_schedules(false);
  REQUIRE(!other.empty());
  CHECK(other.front().mma() == capped(kMmaShapes.front()));
  CHECK(other.back().mma().quad_order == MmaQuadOrder::Steps);  // the twin, timed last
  auto distinct = [&](const std::vector<MmaSizes> &shapes) {
    std::vector<MmaSizes> out;
    for (const MmaSizes &m : shapes)
      if (std::find(out.begin(), out.end(), capped(m)) == out.end()) out.push_back(capped(m));
    return out.size();
  };
  CHECK(identity.size() == distinct(kIdentityMmaShapes));
  CHECK(other.size() == distinct(kMmaShapes) + 1);
}
