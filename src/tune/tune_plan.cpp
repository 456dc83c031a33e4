// Plans as text, the default plans and the one loop that runs a plan (tune_plan.h).
#include "tune/tune_plan.h"

#include "form/quoted_text.h"
#include "tune/tune_moves.h"
#include "tune/tune_params.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace femgpu {

namespace {

// A word or round as a message quotes it: a long one by its two ends.
std::string quoted(const std::string &text) { return "'" + excerpt(text) + "'"; }

// Whether a move takes a count (else it makes its whole list).
bool counted(const TuneMove *m) { return m->counted; }

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

PlanMove parse_move(const std::string &text, const MoveTable &table)
{
  std::istringstream is(text);
  std::string name, count;
  is >> name >> count;
  std::string rest;
  if (is >> rest) throw std::invalid_argument("tuning plan: unexpected " + quoted(rest) + " after " + quoted(name));
  PlanMove m;
  m.move = find_tune_move(name, table);
  const bool known = m.move != nullptr;
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

// A default plan (tune_moves.h's MoveTable): each move at its table count unless given.
TunePlan default_plan(const std::vector<DefaultRound> &rounds, const MoveTable &table)
{
  TunePlan p;
  for (const DefaultRound &round : rounds) {
    std::vector<PlanMove> moves;
    for (const DefaultMove &d : round) {
      const TuneMove *m = find_tune_move(d.name, table);
      if (!m) throw std::logic_error(std::string("default plan: no move '") + d.name + "' in the move table");
      moves.push_back({m, m->counted ? d.n.value_or(m->default_n) : 0});
    }
    add_round(&p, moves);
  }
  return p;
}

}  // namespace

TunePlan default_cuda_plan(const MoveTable &table) { return default_plan(table.cuda_rounds, table); }
TunePlan default_cuda_plan() { return default_cuda_plan(tune_moves()); }
TunePlan default_opencl_plan(const MoveTable &table) { return default_plan(table.opencl_rounds, table); }
TunePlan default_opencl_plan() { return default_opencl_plan(tune_moves()); }

namespace {

// One round: its moves joined by " + ".
std::string round_text(const PlanRound &round)
{
  std::ostringstream os;
  for (std::size_t i = 0; i < round.moves.size(); ++i) {
    const PlanMove &m = round.moves[i];
    if (i > 0) os << " + ";
    os << m.move->name;
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

TunePlan parse_tune_plan(const std::string &text) { return parse_tune_plan(text, tune_moves()); }

TunePlan parse_tune_plan(const std::string &text, const MoveTable &table)
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
      r.moves.push_back(parse_move(move, table));
    }
    plan.rounds.push_back(r);
  }
  if (plan.rounds.empty() && (!plan.params.empty() || plan.print)) return plan;  // the default rounds
  if (plan.rounds.empty() || plan.rounds[0].moves.size() != 1 || plan.rounds[0].moves[0].move != find_tune_move("first", table))
    throw std::invalid_argument("tuning plan: its first round is 'first' alone (the list every move expands)");
  return plan;
}

TuneSettings with_plan(TuneSettings s, const TunePlan &plan)
{
  for (const auto &[name, value] : plan.params) set_tune_param(&s, name, value);
  s.plan = TunePlan();
  s.plan.rounds = plan.rounds;
  return s;
}

std::string tuning_settings_text(const TuneSettings &s)
{
  // The rounds: the counts of the default plan's moves, or the plan given.
  std::ostringstream budget;  // a tuning cut short by its budget is keyed apart
  if (s.budget_seconds > 0) budget << " budget=" << s.budget_seconds;
  return tune_params_text(s) + budget.str() + " plan=" + to_string(settings_plan(s, default_cuda_plan()));
}

bool screens_spills(const PlanRound &round)
{
  return std::any_of(round.moves.begin(), round.moves.end(), [](const PlanMove &m) { return m.move->screens_spills; });
}

TunePlan settings_plan(const TuneSettings &s, const TunePlan &fallback) { return s.plan.rounds.empty() ? fallback : s.plan; }

}  // namespace femgpu
