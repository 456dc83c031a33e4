// Study values, tables and JSON of femgpu-bench -study (study_report.h).
#include "tools/study_report.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace femgpu {

namespace {

const double kNaN = std::nan("");
const std::vector<std::size_t> kTopK = {1, 5, 9, 20};  // Table 7's columns

std::string key(const Tiles &t) { return to_string(Schedule::tiled(t)); }

// Measured median of a planned candidate: infinity when it failed, NaN when not timed.
double measured(const StudyCase &c, const Tiles &t)
{
  const std::string k = key(t);
  for (const TimedCandidate &tc : c.timed)
    if (to_string(tc.schedule) == k) return tc.runs > 0 || !tc.error.empty() ? tc.median_ms : kNaN;
  return kNaN;
}

// The tuning procedure's pick: the fastest measured of the first b of r.
double best_of(const StudyCase &c, const RankedTiles &r, std::size_t b)
{
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < std::min(b, r.best.size()); ++i) {
    const double t = measured(c, r.best[i]);
    if (std::isnan(t)) return kNaN;
    best = std::min(best, t);
  }
  return r.best.empty() ? kNaN : best;
}

std::string fmt(double x, const char *format = "%.2f")
{
  if (std::isnan(x)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string json_number(double x)
{
  if (!std::isfinite(x)) return "null";
  std::ostringstream os;
  os.precision(10);
  os << x;
  return os.str();
}

std::string json_string(const std::string &s)
{
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\', out += ch;
    else if (ch == '\n') out += "\\n";
    else if (static_cast<unsigned char>(ch) < 0x20) out += ' ';
    else out += ch;
  }
  return out + "\"";
}

std::string json_schedules(const RankedTiles &r)
{
  std::string out = "[";
  for (std::size_t i = 0; i < r.best.size(); ++i) out += (i ? ", " : "") + json_string(key(r.best[i]));
  return out + "]";
}

bool done(const StudyCase &c, const char *study) { return c.complete && c.studies.count(study); }

}  // namespace

std::string join(const std::set<std::string> &names)
{
  std::string out;
  for (const std::string &n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

double case_rho(const StudyCase &c, int *used)
{
  std::vector<double> model, time;
  for (std::size_t i = 0; i < c.plan.sample.best.size(); ++i) {
    const double t = measured(c, c.plan.sample.best[i]);
    if (!std::isfinite(t)) continue;  // a candidate that could not run has no rank
    model.push_back(c.plan.sample.model_seconds[i]);
    time.push_back(t);
  }
  if (used) *used = static_cast<int>(model.size());
  return spearman_rho(model, time);
}

double case_topk(const StudyCase &c, std::size_t k)
{
  std::vector<double> times;
  for (const Tiles &t : c.plan.top.best) times.push_back(measured(c, t));
  return topk_quality(times, k);
}

double case_ablation(const StudyCase &c, std::size_t row, std::size_t b)
{
  if (row >= c.plan.ablations.size()) return kNaN;
  return best_of(c, c.plan.top, b) / best_of(c, c.plan.ablations[row], b);  // P = FLOPs / time
}

double case_sensitivity(const StudyCase &c, std::size_t row, std::size_t b)
{
  if (row >= c.plan.sensitivities.size()) return kNaN;
  return best_of(c, c.plan.top, b) / best_of(c, c.plan.sensitivities[row], c.plan.sensitivities[row].best.size());
}

std::string case_summary(const StudyCase &c)
{
  std::ostringstream os;
  os << c.lowered->name() << ": " << c.timed.size() << " kernels, compile wait " << fmt(c.compile_wait_seconds, "%.1f") << " s, timing "
     << fmt(c.timing_seconds, "%.1f") << " s" << (c.complete ? "" : " (incomplete)");
  if (c.studies.count("spearman")) os << "; rho " << fmt(case_rho(c));
  if (c.studies.count("topk"))
    for (std::size_t k : kTopK) os << "; Q~_" << k << " " << fmt(case_topk(c, k));
  return os.str();
}

namespace {

// Rows of Tables 6 and 7: the subsets and their membership test.
std::vector<std::pair<std::string, std::function<bool(const StudyCase &)>>> subsets()
{
  std::vector<std::pair<std::string, std::function<bool(const StudyCase &)>>> rows = {
      {"All cases", [](const StudyCase &) { return true; }},
      {"2D", [](const StudyCase &c) { return c.dim == 2; }},
      {"3D", [](const StudyCase &c) { return c.dim == 3; }},
      {"Low order", [](const StudyCase &c) { return is_low_order(c.dim, c.degree); }},
      {"High order", [](const StudyCase &c) { return !is_low_order(c.dim, c.degree); }}};
  for (const char *op : {"mass", "laplace", "helmholtz", "elasticity", "hyperelasticity"})
    rows.push_back({op, [op](const StudyCase &c) { return c.op == op; }});
  return rows;
}

void per_case_table(std::ostringstream &os, const std::vector<StudyCase> &cases, const char *study, const std::vector<std::string> &keys,
                    const std::function<double(const StudyCase &, std::size_t)> &value)
{
  std::vector<const StudyCase *> cols;
  for (const StudyCase &c : cases)
    if (done(c, study)) cols.push_back(&c);
  if (cols.empty()) return;
  os << "| row |";
  for (const StudyCase *c : cols) os << " " << c->lowered->name() << " |";
  os << "\n|---|";
  for (std::size_t i = 0; i < cols.size(); ++i) os << "---:|";
  os << "\n";
  for (std::size_t r = 0; r < keys.size(); ++r) {
    os << "| " << keys[r] << " |";
    for (const StudyCase *c : cols) os << " " << fmt(value(*c, r)) << " |";
    os << "\n";
  }
}

}  // namespace

std::string study_tables(const std::vector<StudyCase> &cases, int b)
{
  std::ostringstream os;
  const std::size_t bb = static_cast<std::size_t>(b);
  std::vector<std::string> keys;
  for (const Ablation &a : paper_ablations()) keys.push_back(a.label + " [" + a.key + "]");
  os << "\n### Table 5: P_Theta' / P_Theta (best measured of the model's top " << b << " in each constrained space)\n\n";
  per_case_table(os, cases, "ablation", keys, [&](const StudyCase &c, std::size_t r) { return case_ablation(c, r, bb); });
  keys.clear();
  for (const Sensitivity &h : paper_sensitivities()) keys.push_back(h.key);
  os << "\n### Table 8: P(h) / P(h*), h* = (0.8, 0.97, 256, " << b << ")\n\n";
  per_case_table(os, cases, "sensitivity", keys, [&](const StudyCase &c, std::size_t r) { return case_sensitivity(c, r, bb); });
  os << "\n### Table 6: mean Spearman rho (model vs measured ranks of random candidates)\n\n| subset | rho | cases |\n|---|---:|---:|\n";
  for (const auto &[name, in] : subsets()) {
    std::vector<double> rho;
    for (const StudyCase &c : cases)
      if (done(c, "spearman") && in(c)) rho.push_back(case_rho(c));
    if (!rho.empty()) os << "| " << name << " | " << fmt(arithmetic_mean(rho)) << " | " << rho.size() << " |\n";
  }
  os << "\n### Table 7: geometric mean of Q~_k (best of the model's top k / best of its top 70)\n\n| subset |";
  for (std::size_t k : kTopK) os << " k=" << k << " |";
  os << " cases |\n|---|---:|---:|---:|---:|---:|\n";
  for (const auto &[name, in] : subsets()) {
    std::vector<const StudyCase *> in_subset;
    for (const StudyCase &c : cases)
      if (done(c, "topk") && in(c)) in_subset.push_back(&c);
    if (in_subset.empty()) continue;
    os << "| " << name << " |";
    for (std::size_t k : kTopK) {
      std::vector<double> q;
      for (const StudyCase *c : in_subset) q.push_back(case_topk(*c, k));
      os << " " << fmt(geometric_mean(q)) << " |";
    }
    os << " " << in_subset.size() << " |\n";
  }
  std::vector<double> rho, q9;
  for (const StudyCase &c : cases) {
    if (done(c, "spearman")) rho.push_back(case_rho(c));
    if (done(c, "topk")) q9.push_back(case_topk(c, 9));
  }
  os << "\nmean Spearman rho " << fmt(arithmetic_mean(rho)) << " over " << rho.size()
     << " cases (paper: 0.66 on the H200 NVL, 0.68 over both devices)\n"
     << "mean Q~_9 " << fmt(geometric_mean(q9)) << " (geometric) over " << q9.size() << " cases (paper: 0.95)\n";
  return os.str();
}

namespace {

void json_case(std::ostringstream &os, const StudyCase &c, std::size_t b)
{
  os << "    {\"operator\": " << json_string(c.op) << ", \"dim\": " << c.dim << ", \"degree\": " << c.degree << ", \"Q\": " << c.Q
     << ", \"cells\": " << c.cells << ", \"studies\": " << json_string(join(c.studies)) << ", \"ran\": " << (c.ran ? "true" : "false")
     << ", \"complete\": " << (c.complete ? "true" : "false") << ", \"search_space\": " << c.plan.top.space_size
     << ", \"search_space_truncated\": " << (c.plan.top.truncated ? "true" : "false")
     << ", \"compile_wait_seconds\": " << json_number(c.compile_wait_seconds) << ", \"timing_seconds\": " << json_number(c.timing_seconds)
     << ",\n     \"candidates\": [\n";
  for (std::size_t i = 0; i < c.timed.size(); ++i) {
    const TimedCandidate &t = c.timed[i];
    os << "       {\"schedule\": " << json_string(to_string(t.schedule)) << ", \"model_seconds_per_cell\": " << json_number(t.model_seconds)
       << ", \"median_ms\": " << json_number(t.median_ms) << ", \"mean_ms\": " << json_number(t.mean_ms) << ", \"runs\": " << t.runs
       << ", \"registers\": " << t.registers << ", \"spill_bytes\": " << t.local_bytes << ", \"shared_bytes\": " << t.shared_bytes
       << ", \"error\": " << json_string(t.error) << "}" << (i + 1 < c.timed.size() ? ",\n" : "\n");
  }
  os << "     ],\n     \"top\": " << json_schedules(c.plan.top) << ",\n     \"sample\": " << json_schedules(c.plan.sample);
  const bool spearman = c.studies.count("spearman"), topk = c.studies.count("topk");
  os << ",\n     \"rho\": " << json_number(spearman ? case_rho(c) : kNaN) << ", \"q\": {";
  for (std::size_t i = 0; i < kTopK.size(); ++i)
    os << (i ? ", " : "") << "\"" << kTopK[i] << "\": " << json_number(topk ? case_topk(c, kTopK[i]) : kNaN);
  os << "},\n     \"baseline_ms\": " << json_number(best_of(c, c.plan.top, b)) << ",\n     \"ablation\": [";
  const std::vector<Ablation> ablations = paper_ablations();
  for (std::size_t r = 0; r < c.plan.ablations.size(); ++r)
    os << (r ? ",\n       " : "\n       ") << "{\"key\": " << json_string(ablations[r].key) << ", \"space_size\": " << c.plan.ablations[r].space_size
       << ", \"truncated\": " << (c.plan.ablations[r].truncated ? "true" : "false")
       << ", \"best_ms\": " << json_number(best_of(c, c.plan.ablations[r], b)) << ", \"ratio\": " << json_number(case_ablation(c, r, b))
       << ", \"top_b\": " << json_schedules(c.plan.ablations[r]) << "}";
  os << "],\n     \"sensitivity\": [";
  const std::vector<Sensitivity> rows = paper_sensitivities();
  for (std::size_t r = 0; r < c.plan.sensitivities.size(); ++r) {
    const RankedTiles &h = c.plan.sensitivities[r];
    os << (r ? ",\n       " : "\n       ") << "{\"key\": " << json_string(rows[r].key) << ", \"space_size\": " << h.space_size
       << ", \"truncated\": " << (h.truncated ? "true" : "false") << ", \"best_ms\": " << json_number(best_of(c, h, h.best.size()))
       << ", \"ratio\": " << json_number(case_sensitivity(c, r, b)) << ", \"top_b\": " << json_schedules(h) << "}";
  }
  os << "]}";
}

}  // namespace

std::string study_json(const std::vector<StudyCase> &cases, const std::string &device, const BenchOptions &options, int warmups, int runs)
{
  std::ostringstream os;
  os << "{\"device\": " << json_string(device) << ", \"n2\": " << options.n2 << ", \"n3\": " << options.n3 << ", \"b\": " << options.b
     << ", \"warmups\": " << warmups << ", \"runs\": " << runs << ",\n  \"cases\": [\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    json_case(os, cases[i], static_cast<std::size_t>(options.b));
    os << (i + 1 < cases.size() ? ",\n" : "\n");
  }
  os << "  ]}\n";
  return os.str();
}

}  // namespace femgpu
