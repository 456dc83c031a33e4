// Completing a partial schedule text for one form (schedule_words.h's completed_schedule):
// the defaults of the words a text may leave out, which depend on the form's loops.
#include <algorithm>
#include <stdexcept>

#include "schedule/schedule_words.h"

namespace femgpu {

namespace {

// `key`'s value in *t, or `fallback` added as its value; the value as an integer.
int given_or(ScheduleText *t, const std::string &key, int fallback)
{
  if (const std::string *v = t->find(key)) return std::stoi(*v);
  t->words.emplace_back(key, std::to_string(fallback));
  return fallback;
}

// tec=: the given column tiles, then each remaining group's whole basis.
void complete_eval_cols(ScheduleText *t, const ActionIR &ir)
{
  std::vector<std::string> cols;
  if (const std::string *v = t->find("tec")) {
    const std::string inner = v->substr(1, v->size() - 2);
    for (size_t at = 0; at <= inner.size();) {
      const size_t comma = std::min(inner.find(',', at), inner.size());
      cols.push_back(inner.substr(at, comma - at));
      at = comma + 1;
    }
  }
  if (cols.size() > ir.groups.size())
    throw std::invalid_argument("-mat_fem_gpu_schedule's tec= has " + std::to_string(cols.size()) + " entries; the form has " +
                                std::to_string(ir.groups.size()) + " evaluation groups");
  for (size_t g = cols.size(); g < ir.groups.size(); ++g) cols.push_back(std::to_string(ir.groups[g].n_basis));
  std::string list = "[";
  for (size_t g = 0; g < cols.size(); ++g) list += (g ? "," : "") + cols[g];
  t->words.erase(std::remove_if(t->words.begin(), t->words.end(), [](const auto &w) { return w.first == "tec"; }), t->words.end());
  t->words.emplace_back("tec", list + "]");
}

}  // namespace

Schedule completed_schedule(const ScheduleText &given, const ActionIR &ir, int Q, Precision precision)
{
  ScheduleText t = given;
  if (t.strategy == Strategy::TensorCore) {
    const std::string *operands = t.find("operands");
    if (operands && *operands == "registers") {  // 8 cells a warp, one row tile of points a time
      given_or(&t, "nc", 8 * given_or(&t, "warps", 4));
      given_or(&t, "tq", 8);
    }
    given_or(&t, "nc", 16);
    given_or(&t, "warps", 4);
    given_or(&t, "tq", std::min(32, (Q + 7) / 8 * 8));
  } else if (t.strategy == Strategy::Tiled) {
    given_or(&t, "nc", 1);
    given_or(&t, "nwi", 32);
    const int tq = given_or(&t, "tq", Q);
    given_or(&t, "ter", tq);
    complete_eval_cols(&t, ir);
    given_or(&t, "tqr", ir.n_test_basis);
    given_or(&t, "tqc", tq);
  }
  return schedule_from_text(t, precision);
}

}  // namespace femgpu
