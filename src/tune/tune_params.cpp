// The table of tuning parameters (tune_params.h) and what is made from it.
#include "tune/tune_params.h"

#include "form/quoted_text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <type_traits>
#include <utility>

namespace femgpu {

namespace {

std::string real_text(double x)
{
  std::ostringstream os;
  os << x;
  return os.str();
}

std::string list_text(const std::vector<int> &v)
{
  std::string text;
  for (size_t i = 0; i < v.size(); ++i) text += (i ? "," : "") + std::to_string(v[i]);
  return text.empty() ? "none" : text;
}

// A whole-number parameter; `field` (a generic lambda) gives the TuneSettings member.
template <class Field>
TuneParam integer(const char *name, double min, double max, const char *help, Field field)
{
  return {name, ParamKind::Integer, min, max, false, {}, true, help, [field](const TuneSettings &s) { return std::to_string(field(s)); },
          [field](TuneSettings *s, const std::string &v) { field(*s) = static_cast<std::decay_t<decltype(field(*s))>>(std::stoll(v)); }};
}

template <class Field>
TuneParam real(const char *name, double min, double max, const char *help, Field field)
{
  return {name, ParamKind::Real, min, max, false, {}, true, help, [field](const TuneSettings &s) { return real_text(field(s)); },
          [field](TuneSettings *s, const std::string &v) { field(*s) = std::stod(v); }};
}

template <class Field>
TuneParam boolean(const char *name, const char *help, Field field)
{
  return {name, ParamKind::Bool, 0, 1, false, {"0", "1", "false", "true"}, true, help,
          [field](const TuneSettings &s) { return std::string(field(s) ? "1" : "0"); },
          [field](TuneSettings *s, const std::string &v) { field(*s) = v == "1" || v == "true"; }};
}

template <class Field>
TuneParam int_list(const char *name, const char *help, Field field)
{
  return {name, ParamKind::IntegerList, 1, 1024, false, {}, true, help, [field](const TuneSettings &s) { return list_text(field(s)); },
          [field](TuneSettings *s, const std::string &v) {
            std::vector<int> out;
            std::istringstream is(v == "none" ? "" : v);
            for (std::string item; std::getline(is, item, ',');) out.push_back(std::stoi(item));
            field(*s) = out;
          }};
}

#define FIELD(member) [](auto &s) -> auto & { return s.member; }

// Candidate counts are capped where tuning would take hours; register words at the
// largest register file a work-item can have.
constexpr double kCount = 1000, kWords = 1024;

// The search space and the cost model's ranking of it.
std::vector<TuneParam> search_params()
{
  const double count = kCount;
  std::vector<TuneParam> p;
  p.push_back(integer("candidates", 0, count, "tiled candidates timed: the cost model's best b", FIELD(candidates)));
  p.push_back(real("eta_alias_min", 0, 1, "search space: least aliasing efficiency", FIELD(limits.eta_alias_min)));
  p.push_back(real("eta_simd_min", 0, 1, "search space: least SIMD efficiency (tiled groups fill whole warps)", FIELD(limits.eta_simd_min)));
  p.push_back(integer("wg_max", 1, 1024, "search space: most work-items per group N_c N_WI (also bounds the SCPWI sizes)", FIELD(limits.wg_max)));
  p.push_back(integer("max_candidates", 1, 1e9, "the walk of the tiled space visits at most this many candidates, split over the T^Q values",
                      FIELD(limits.max_candidates)));
  p.push_back(int_list("nwi_classes", "also time the model's best of each of these N_WI classes", FIELD(items_per_cell_classes)));
  p.push_back(integer("quad_tile_classes", 0, 64, "also time the model's best of each of the largest n quadrature tiles T^Q (Q, Q/2, ...; 0: off)",
                      FIELD(quad_tile_classes)));
  p.push_back(integer("per_tiling", 0, count,
                      "each selection takes at most n candidates that differ only in their quadrature tile T_q^r x T_q^c (0: no cap)",
                      FIELD(per_evaluation_tiling)));
  TuneParam barrier = real("model_barrier_ns", 0, 1e6, "cost model: one barrier's cost to its group, in ns (t_sync; 0: the paper's t_heur alone)",
                           FIELD(model_barrier_seconds));
  barrier.get = [](const TuneSettings &s) { return real_text(s.model_barrier_seconds * 1e9); };
  barrier.set = [](TuneSettings *s, const std::string &v) { s->model_barrier_seconds = std::stod(v) * 1e-9; };
  p.push_back(barrier);
  return p;
}

// What the first list times besides the b best, and how it is timed.
std::vector<TuneParam> selection_params()
{
  const double count = kCount, words = kWords;
  std::vector<TuneParam> p;
  p.push_back(integer("paper_model_candidates", 0, count, "also time the best n by the paper's t_heur alone, without the barrier term (0: off)",
                      FIELD(paper_model_candidates)));
  p.push_back(integer("low_register_words", 0, words, "also time the best candidates whose register footprint is at most this many words (0: off)",
                      FIELD(low_register_words)));
  p.push_back(integer("low_register_candidates", 0, count, "how many low-register candidates", FIELD(low_register_candidates)));
  p.push_back(integer("fit_register_words", 0, words, "also time the best candidates whose kernel as timed holds at most this many words (0: off)",
                      FIELD(fit_register_words)));
  p.push_back(integer("fit_candidates", 0, count, "how many register-fitting candidates (0: off)", FIELD(fit_candidates)));
  p.push_back(integer("shared_dofs_above_words", 0, words, "time unrolled tiled candidates above this register footprint with shared DOFs (0: off)",
                      FIELD(shared_dofs_above_words)));
  p.push_back(int_list("scpwi_work_groups", "time SCPWI at each of these work-group sizes (those up to wg_max; none: no SCPWI)",
                       FIELD(scpwi_work_group_sizes)));
  p.push_back(boolean("scpwi_constant_tables", "also time each SCPWI size with constant-memory tables, separate and merged", FIELD(scpwi_constant_tables)));
  p.push_back(boolean("scpwi_lanes", "vector forms: also time each SCPWI candidate with one work-item per component (lanes=C)", FIELD(scpwi_lanes)));
  p.push_back({"loops", ParamKind::Choice, 0, 0, false, {"unrolled", "compiler"}, true, "tiled candidates' private-array loops",
               [](const TuneSettings &s) { return std::string(s.tiled_loops == Loops::Unrolled ? "unrolled" : "compiler"); },
               [](TuneSettings *s, const std::string &v) { s->tiled_loops = v == "unrolled" ? Loops::Unrolled : Loops::Compiler; }});
  TuneParam cutoff = real("cutoff", 1, 1e6,
                          "CUDA: time in full only candidates whose second launch is within this factor of the fastest so far "
                          "(0: off; a timing choice, not in the cache key)",
                          FIELD(cutoff));
  cutoff.zero_off = true, cutoff.in_key = false;
  p.push_back(cutoff);
  p.push_back(real("first_round_share", 0.05, 1,
                   "with a budget: the share of it the first round (first list and tensor cores) may spend, the rest kept for "
                   "the twins of the fastest",
                   FIELD(first_round_share)));
  return p;
}

std::vector<TuneParam> make_params()
{
  std::vector<TuneParam> p = search_params();
  for (TuneParam &more : selection_params()) p.push_back(std::move(more));
  return p;
}

#undef FIELD

const TuneParam &find_param(const std::string &name)
{
  for (const TuneParam &p : tune_params())
    if (name == p.name) return p;
  std::string names;
  for (const TuneParam &p : tune_params()) names += (names.empty() ? "" : " ") + std::string(p.name);
  throw TuneParamError("unknown parameter '" + excerpt(name) + "' (parameters: " + names + ")", false);
}

// A number in `p`'s range written as a whole decimal; *why says why not.
bool check_number(const TuneParam &p, const std::string &v, bool integral, std::string *why)
{
  errno = 0;
  char *end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  const bool whole = !integral || v.find_first_not_of("-0123456789") == std::string::npos;
  if (v.empty() || *end != '\0' || errno != 0 || !std::isfinite(x) || !whole) {
    *why = integral ? "is not an integer" : "is not a finite number";
    return false;
  }
  if ((x >= p.min && x <= p.max) || (p.zero_off && x == 0)) return true;
  *why = "is out of range";
  return false;
}

// "" when `v` is a value of `p`; *range: the reason is the range or choices.
std::string check_value(const TuneParam &p, const std::string &v, bool *range)
{
  std::string why;
  *range = true;
  if (p.kind == ParamKind::Choice || p.kind == ParamKind::Bool) {
    for (const char *c : p.choices)
      if (v == c) return "";
    return "is not one of its choices";
  }
  if (p.kind != ParamKind::IntegerList) {
    if (!check_number(p, v, p.kind == ParamKind::Integer, &why)) *range = why == "is out of range";
    return why;
  }
  if (v == "none") return "";
  std::istringstream is(v);
  size_t n = 0;
  for (std::string item; std::getline(is, item, ','); ++n) {
    if (check_number(p, item, true, &why)) continue;
    *range = why == "is out of range";
    return "has an entry '" + excerpt(item) + "' that " + why;
  }
  *range = false;
  return v.empty() || v.back() == ',' || n == 0 ? "has an empty entry" : "";
}

}  // namespace

const std::vector<TuneParam> &tune_params()
{
  static const std::vector<TuneParam> table = make_params();
  return table;
}

std::string param_values(const TuneParam &p)
{
  if (p.kind == ParamKind::Choice || p.kind == ParamKind::Bool) {
    std::string s;
    for (const char *c : p.choices) s += (s.empty() ? "" : "|") + std::string(c);
    return s;
  }
  const std::string range = real_text(p.min) + "-" + real_text(p.max);
  if (p.kind == ParamKind::IntegerList) return range + ",...|none";
  return p.zero_off ? "0 or " + range : range;
}

void set_tune_param(TuneSettings *s, const std::string &name, const std::string &value)
{
  const TuneParam &p = find_param(name);
  bool range = false;
  const std::string why = check_value(p, value, &range);
  if (!why.empty()) throw TuneParamError("parameter '" + excerpt(name + "=" + value) + "' " + why + " (" + name + "=" + param_values(p) + ")", range);
  p.set(s, value);
}

std::string tune_param_value(const TuneSettings &s, const std::string &name) { return find_param(name).get(s); }

std::string tune_params_text(const TuneSettings &s)
{
  std::string text;
  for (const TuneParam &p : tune_params())
    if (p.in_key) text += (text.empty() ? "" : " ") + std::string(p.name) + "=" + p.get(s);
  return text;
}

std::string tune_params_help()
{
  std::string s = "param";
  for (const TuneParam &p : tune_params()) s += std::string(" ") + p.name + "=" + param_values(p);
  return s;
}

std::string tune_params_docs_table()
{
  const TuneSettings defaults;
  std::string s = "| parameter | values | default | in the cache key | meaning |\n|---|---|---|---|---|\n";
  for (const TuneParam &p : tune_params()) {
    std::string values;
    for (char c : param_values(p)) values += c == '|' ? std::string("\\|") : std::string(1, c);  // Markdown cells
    s += std::string("| `") + p.name + "=` | " + values + " | " + p.get(defaults) + " | " + (p.in_key ? "yes" : "no") + " | " + p.help + " |\n";
  }
  return s;
}

}  // namespace femgpu
