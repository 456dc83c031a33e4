// Plans as text, the default plans and the one loop that runs a plan (tune_plan.h).
#include "tune/tune_plan.h"

#include "form/quoted_text.h"
#include "tune/tune_params.h"

#include <sstream>
#include <stdexcept>

namespace femgpu {

namespace {

struct MoveName {
  Move move;
  const char *name;
};

// One table for printing and parsing, so that any printed plan reads back.
const MoveName kMoves[] = {{Move::First, "first"},
                           {Move::TensorCore, "tensor_core"},
                           {Move::Assembled, "assembled"},
                           {Move::QuadSteps, "quad_steps"},
                           {Move::SharedDofs, "shared_dofs"},
                           {Move::WarpScatter, "warp_scatter"},
                           {Move::OwnDofs, "own_dofs"},
                           {Move::StagedScatter, "staged_scatter"},
                           {Move::Interleaved, "interleaved"},
                           {Move::HalfGroup, "half_group"},
                           {Move::RegisterBound, "register_bound"},
                           {Move::CellValueBound, "cell_value_bound"},
                           {Move::LocalSearch, "local_search"},
                           {Move::BoundBest, "bound_best"}};

// A word or round as a message quotes it: a long one by its two ends.
std::string quoted(const std::string &text) { return "'" + excerpt(text) + "'"; }

// Moves that take no count: they make their whole list.
bool counted(Move m) { return m != Move::First && m != Move::BoundBest && m != Move::Assembled; }

std::string trim(const std::string &s)
{
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

std::vector<std::string> split(const std::string &s, char sep)
{
  std::vector<std::string> parts;
  std::string part;
  std::istringstream is(s);
  while (std::getline(is, part, sep)) parts.push_back(trim(part));
  return parts;
}

PlanMove parse_move(const std::string &text)
{
  std::istringstream is(text);
  std::string name, count;
  is >> name >> count;
  std::string rest;
  if (is >> rest) throw std::invalid_argument("tuning plan: unexpected " + quoted(rest) + " after " + quoted(name));
  PlanMove m;
  bool known = false;
  for (const MoveName &k : kMoves)
    if (name == k.name) m.move = k.move, known = true;
  if (!known) throw std::invalid_argument("tuning plan: unknown move " + quoted(name));
  if (count.empty()) {
    m.n = counted(m.move) ? 1 : 0;
    return m;
  }
  if (!counted(m.move) || count.rfind("n=", 0) != 0) throw std::invalid_argument("tuning plan: " + quoted(name) + " takes no " + quoted(count));
  std::size_t used = 0;
  long v = -1;
  try {
    v = std::stol(count.substr(2), &used);
  } catch (const std::exception &) {
  }
  if (v < 0 || v > 1000 || used + 2 != count.size()) throw std::invalid_argument("tuning plan: bad count " + quoted(count) + " (0 to 1000)");
  m.n = static_cast<std::size_t>(v);
  return m;
}

// "name=value ..." after "param": each checked against its declaration (tune_params.h).
void read_params(const std::string &text, TunePlan *plan)
{
  std::istringstream is(text);
  TuneSettings scratch;
  std::string word;
  if (!(is >> word)) throw std::invalid_argument("tuning plan: 'param' names no parameter (param name=value ...)");
  do {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("tuning plan: " + quoted(word) + " after 'param' is not name=value");
    set_tune_param(&scratch, word.substr(0, eq), word.substr(eq + 1));
    plan->params.emplace_back(word.substr(0, eq), word.substr(eq + 1));
  } while (is >> word);
}

// Appends a round of the moves with n > 0 (or no count) to `plan`.
void add_round(TunePlan *plan, std::vector<PlanMove> moves)
{
  PlanRound r;
  for (const PlanMove &m : moves)
    if (m.n > 0 || !counted(m.move)) r.moves.push_back(m);
  if (!r.moves.empty()) plan->rounds.push_back(r);
}

}  // namespace

TunePlan default_cuda_plan(const TuneSettings &s)
{
  // The order is measured (tuner.h): tensor cores before the twins so that the third
  // round may bound them; the register-bound twin of the fastest so far right after, where
  // a budget keeps time for it (TuneSettings::first_round_share); the local search after
  // the twins so that they expand the same parents; the bound twins of the search's
  // winner last.
  TunePlan p;
  add_round(&p, {{Move::First, 0}});
  add_round(&p, {{Move::TensorCore, s.mma_candidates}});
  if (s.assembled_candidate) add_round(&p, {{Move::Assembled, 0}});
  // own_dofs n=1 here too: with a budget the third round is often not reached (2D P4-P5
  // at 10 s), and the own twin of the fastest SCPWI kernel was its gain.
  add_round(&p, {{Move::RegisterBound, std::min<std::size_t>(1, s.register_bound_candidates)}, {Move::QuadSteps, s.quad_steps_candidates},
                 {Move::OwnDofs, std::min<std::size_t>(1, s.own_dofs_candidates)}, {Move::StagedScatter, s.staged_scatter_candidates}});
  add_round(&p, {{Move::SharedDofs, s.shared_dofs_candidates}, {Move::WarpScatter, s.warp_scatter_candidates},
                 {Move::Interleaved, s.interleaved_candidates}});
  // After the warp twins, so that a warp twin that won may be twinned (Laplace and
  // elasticity 2D P3's winners scatter=warp, both faster with own=plain).
  add_round(&p, {{Move::OwnDofs, s.own_dofs_candidates}, {Move::HalfGroup, s.half_group_candidates}, {Move::RegisterBound, s.register_bound_candidates},
                 {Move::CellValueBound, s.cell_value_bound_candidates}});
  add_round(&p, {{Move::LocalSearch, s.local_search_rounds}});
  if (s.register_bound_candidates > 0 || s.cell_value_bound_candidates > 0) add_round(&p, {{Move::BoundBest, 0}});
  return p;
}

TunePlan default_opencl_plan(const TuneSettings &s)
{
  TunePlan p;
  add_round(&p, {{Move::First, 0}});
  add_round(&p, {{Move::LocalSearch, s.local_search_rounds}});
  return p;
}

namespace {

// One round: its moves joined by " + ".
std::string round_text(const PlanRound &round)
{
  std::ostringstream os;
  for (std::size_t i = 0; i < round.moves.size(); ++i) {
    const PlanMove &m = round.moves[i];
    if (i > 0) os << " + ";
    for (const MoveName &k : kMoves)
      if (k.move == m.move) os << k.name;
    if (counted(m.move)) os << " n=" << m.n;
  }
  return os.str();
}

}  // namespace

std::string to_string(const TunePlan &plan)
{
  // Segments joined by "; ": the parameters, print, then the rounds.
  std::vector<std::string> segments;
  if (!plan.params.empty()) {
    std::string params = "param";
    for (const auto &[name, value] : plan.params) params += " " + name + "=" + value;
    segments.push_back(params);
  }
  if (plan.print) segments.push_back("print");
  for (const PlanRound &r : plan.rounds) segments.push_back(round_text(r));
  std::string text;
  for (const std::string &segment : segments) text += (text.empty() ? "" : "; ") + segment;
  return text;
}

TunePlan parse_tune_plan(const std::string &text)
{
  TunePlan plan;
  if (const std::string odd = unusual_character(text); !odd.empty()) throw std::invalid_argument("tuning plan: " + odd);
  for (const std::string &round : split(text, ';')) {
    if (round.empty()) continue;
    if (round == "print") {
      plan.print = true;
      continue;
    }
    if (round.rfind("param", 0) == 0 && (round.size() == 5 || round[5] == ' ' || round[5] == '\t')) {
      read_params(round.substr(5), &plan);
      continue;
    }
    if (round.front() == '+' || round.back() == '+') throw std::invalid_argument("tuning plan: an empty move in " + quoted(round));
    PlanRound r;
    for (const std::string &move : split(round, '+')) {
      if (move.empty()) throw std::invalid_argument("tuning plan: an empty move in " + quoted(round));
      r.moves.push_back(parse_move(move));
    }
    plan.rounds.push_back(r);
  }
  if (plan.rounds.empty() && (!plan.params.empty() || plan.print)) return plan;  // the default rounds
  if (plan.rounds.empty() || plan.rounds[0].moves.size() != 1 || plan.rounds[0].moves[0].move != Move::First)
    throw std::invalid_argument("tuning plan: its first round is 'first' alone (the list every move expands)");
  return plan;
}

TuneSettings with_plan_text(TuneSettings s, const std::string &text)
{
  TunePlan plan = parse_tune_plan(text);
  for (const auto &[name, value] : plan.params) set_tune_param(&s, name, value);
  plan.params.clear();
  plan.print = false;
  s.plan = to_string(plan);
  return s;
}

std::string tuning_settings_text(const TuneSettings &s)
{
  // The rounds: the counts of the default plan's moves, or the plan given.
  std::ostringstream budget;  // a tuning cut short by its budget is keyed apart
  if (s.budget_seconds > 0) budget << " budget=" << s.budget_seconds;
  return tune_params_text(s) + budget.str() + " plan=" + to_string(settings_plan(s, default_cuda_plan(s)));
}

bool screens_spills(const PlanRound &round)
{
  for (const PlanMove &m : round.moves)
    if (m.move == Move::RegisterBound || m.move == Move::CellValueBound || m.move == Move::BoundBest) return true;
  return false;
}

TunePlan settings_plan(const TuneSettings &s, const TunePlan &fallback)
{
  return s.plan.empty() ? fallback : parse_tune_plan(s.plan);
}

}  // namespace femgpu
