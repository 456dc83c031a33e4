// What is made from the table of tuning moves (tune_moves.h, tune_move_table.cpp): the
// lookup, a move's candidates for a test, the GPU check's twins, -help and the docs table.
#include "tune/tune_moves.h"

#include <stdexcept>

#include "tune/tune_params.h"

namespace femgpu {

const TuneMove *find_tune_move(const std::string &name, const MoveTable &table)
{
  for (const TuneMove &m : table.moves)
    if (name == m.name) return &m;
  return nullptr;
}

std::vector<TimedCandidate> move_candidates(const std::string &name, std::size_t n, const PlanContext &ctx, const std::vector<TimedCandidate> &timed)
{
  const TuneMove *m = find_tune_move(name);
  if (!m || !m->make) throw std::invalid_argument("move_candidates: '" + name + "' is no move that makes its candidates");
  TuneReport report;
  report.candidates = timed;
  return m->make(n, ctx, &report);
}

std::vector<Schedule> with_rule_twins(std::vector<Schedule> sample, const std::set<std::string> &skip, const MoveTable &table)
{
  std::set<std::string> seen;
  for (const Schedule &s : sample) seen.insert(to_string(s));
  const std::size_t originals = sample.size();
  for (const TuneMove &m : table.moves) {
    if (!m.twin || skip.count(m.name)) continue;
    for (std::size_t i = 0, n = m.twin->checked_with_twins ? sample.size() : originals; i < n; ++i) {
      const std::optional<Schedule> twin = twin_of(*m.twin, sample[i]);
      if (twin && seen.insert(to_string(*twin)).second) sample.push_back(*twin);
    }
  }
  return sample;
}

std::string tune_moves_help(const MoveTable &table)
{
  std::string s;
  for (const TuneMove &m : table.moves) s += (s.empty() ? "" : " ") + std::string(m.name) + (m.counted ? " n=" + std::to_string(m.default_n) : "");
  return s;
}

std::string tune_plan_help()
{
  return "Tuning plan: rounds of moves and research parameters, e.g. \"param wg_max=128 cutoff=2; first; shared_dofs n=2 + warp_scatter n=2; "
         "local_search n=2\" (parameters alone keep the default rounds; docs/petsc.md); a segment print: print the plans and parameters when "
         "tuning. Moves (default n): " +
         tune_moves_help() + ". Parameters: " + tune_params_help();
}

std::string tune_moves_docs_table(const MoveTable &table)
{
  std::string s = "| move | default n | twin of one choice | what it times |\n|---|---|---|---|\n";
  for (const TuneMove &m : table.moves) {
    const std::string name = std::string(m.name) + (m.counted ? " n=" : ""), n = m.counted ? std::to_string(m.default_n) : "(takes none)";
    const std::string twin = m.twin ? "`" + std::string(m.twin->words) + "`" : "";
    s += "| `" + name + "` | " + n + " | " + twin + " | " + m.help + " |\n";
  }
  return s;
}

}  // namespace femgpu
