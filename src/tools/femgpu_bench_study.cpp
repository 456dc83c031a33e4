// femgpu-bench -study: the paper's Tables 5-8 (section 5.2.3-5.2.5) on the GPU.
//
// Stages: options -> cases (-study_cases, or the paper's three cases for ablation and
// sensitivity and the -ops/-dims/-degrees grid for spearman and topk) -> plan (CPU:
// lower each case, enumerate and rank the constrained spaces, studies.h) -> the number
// of kernels to time, printed before any timing -> per case: operands on the device,
// NVRTC compiles in parallel (the next case's while this one is timed), CUDA-event
// medians of -study_runs runs after -study_warmups -> tables (text) and -study_json.
// -study_max_seconds stops timing (tables then cover the finished cases only);
// -study_plan_only stops after the plan and needs no GPU.
#include "tools/femgpu_bench_study.h"

#include <petscsys.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "tools/bench_case.h"
#include "tools/study_report.h"
#include "runtime/cuda_tuner.h"
#include "probe/device_probe.h"
#include "cache/json_lite.h"
#include "petsc/base/text_option.h"

namespace femgpu {

namespace {

struct StudyOptions {
  std::set<std::string> studies;
  std::string cases, json, device_params;
  std::vector<int> degrees;
  double max_seconds = 0;
  int warmups = 3, runs = 10, sample = 20, top = 70, seed = 1;
  bool plan_only = false;
  double barrier_seconds = kModelBarrierSeconds;  // the ranked model's t_sync (0: the paper's t_heur)
};

std::vector<std::string> split(const std::string &s, char sep)
{
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, sep);)
    if (!t.empty()) out.push_back(t);
  return out;
}

PetscErrorCode read_options(const std::string &which, StudyOptions &o)
{
  std::string cases, json, params;  // read whole (text_option.h)
  PetscInt degrees[16], n_degrees = 16, warmups = o.warmups, runs = o.runs, sample = o.sample, top = o.top, seed = o.seed;
  PetscReal max_seconds = o.max_seconds, barrier_ns = o.barrier_seconds * 1e9;
  PetscBool plan_only = PETSC_FALSE, degrees_set = PETSC_FALSE, set;
  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, "", "femgpu-bench -study options (docs/studies.md)", "");
  PetscCall(read_text_option(PetscOptionsObject, {}, "-study_cases", "cases op:dim:degree,... (default: per study, see docs/studies.md)", "", &cases, &set));
  PetscCall(PetscOptionsIntArray("-degrees", "degrees of the spearman/topk grid (default: -min_degree..-max_degree_2d/3d)", "", degrees,
                                 &n_degrees, &degrees_set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-study_json", "write every timed candidate and every table as JSON", "", &json, &set));
  PetscCall(PetscOptionsReal("-study_max_seconds", "stop timing after this many seconds of wall time (0: no limit)", "", max_seconds,
                             &max_seconds, nullptr));
  PetscCall(PetscOptionsInt("-study_warmups", "untimed launches per kernel", "", warmups, &warmups, nullptr));
  PetscCall(PetscOptionsInt("-study_runs", "timed launches per kernel (the median is kept)", "", runs, &runs, nullptr));
  PetscCall(PetscOptionsInt("-study_sample", "random candidates per case for Spearman's rho (paper: 20)", "", sample, &sample, nullptr));
  PetscCall(PetscOptionsInt("-study_top", "model-ranked candidates timed for Q~_k's denominator (paper: 70)", "", top, &top, nullptr));
  PetscCall(PetscOptionsInt("-study_seed", "seed of the random samples", "", seed, &seed, nullptr));
  PetscCall(PetscOptionsBool("-study_plan_only", "print the plan (kernels to time) and stop; needs no GPU", "", plan_only, &plan_only, nullptr));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-study_device_params", "cost-model parameters (probe cache JSON) for -study_plan_only", "", &params, &set));
  PetscCall(PetscOptionsReal("-study_model_barrier_ns", "the ranked model's cost of one work-group barrier, ns (0: the paper's t_heur alone)", "",
                             barrier_ns, &barrier_ns, nullptr));
  PetscOptionsEnd();
  for (const std::string &s : split(which, ',')) {
    if (s == "all") o.studies = {"ablation", "spearman", "topk", "sensitivity"};
    else if (s == "ablation" || s == "spearman" || s == "topk" || s == "sensitivity") o.studies.insert(s);
    else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-study %s: expected ablation, spearman, topk, sensitivity or all", s.c_str());
  }
  o.cases = cases, o.json = json, o.device_params = params;
  if (degrees_set) o.degrees.assign(degrees, degrees + n_degrees);
  o.max_seconds = max_seconds, o.warmups = static_cast<int>(warmups), o.runs = static_cast<int>(runs);
  o.barrier_seconds = std::max<double>(0, barrier_ns * 1e-9);
  o.sample = static_cast<int>(sample), o.top = static_cast<int>(top), o.seed = static_cast<int>(seed), o.plan_only = plan_only;
  PetscFunctionReturn(0);
}

struct CaseSpec {
  std::string op;
  int dim, degree;
  std::set<std::string> studies;
};

std::vector<CaseSpec> case_list(const StudyOptions &o, const BenchOptions &b)
{
  std::vector<CaseSpec> out;
  auto add = [&](const std::string &op, int dim, int k, const std::set<std::string> &studies) {
    std::set<std::string> run;
    for (const std::string &s : studies)
      if (o.studies.count(s)) run.insert(s);
    if (run.empty()) return;
    for (CaseSpec &c : out)
      if (c.op == op && c.dim == dim && c.degree == k) return c.studies.insert(run.begin(), run.end()), void();
    out.push_back({op, dim, k, run});
  };
  if (!o.cases.empty()) {
    for (const std::string &c : split(o.cases, ',')) {
      std::vector<std::string> f = split(c, ':');
      if (f.size() != 3) throw std::invalid_argument("-study_cases: '" + c + "' is not op:dim:degree");
      add(f[0], std::stoi(f[1]), std::stoi(f[2]), o.studies);
    }
    return out;
  }
  // The paper's three representative cases (section 5.2.3 and 5.2.5).
  for (const CaseSpec &c : {CaseSpec{"mass", 2, 3, {}}, CaseSpec{"hyperelasticity", 2, 6, {}}, CaseSpec{"elasticity", 3, 4, {}}})
    add(c.op, c.dim, c.degree, {"ablation", "sensitivity"});
  for (const std::string &op : b.ops)
    for (int dim : b.dims) {
      const int max = dim == 2 ? b.max_degree_2d : b.max_degree_3d;
      for (int k = b.min_degree; k <= max; ++k)
        if (o.degrees.empty() || std::find(o.degrees.begin(), o.degrees.end(), k) != o.degrees.end()) add(op, dim, k, {"spearman", "topk"});
    }
  return out;
}


double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Lowers and plans every case (CPU only) and prints one line per case.
std::vector<StudyCase> plan_cases(const std::vector<CaseSpec> &specs, const DeviceParams &params, const BenchOptions &b, const StudyOptions &o)
{
  std::vector<StudyCase> cases;
  std::printf("study plan (cost model: SG_sat %g / %g, b = %d, top %d, sample %d, seed %d):\n", params.sg_sat_global, params.sg_sat_local,
              b.b, o.top, o.sample, o.seed);
  for (const CaseSpec &spec : specs) {
    StudyCase c;
    c.op = spec.op, c.dim = spec.dim, c.degree = spec.degree, c.studies = spec.studies;
    try {
      c.lowered = lower_case(spec.op, spec.dim, spec.degree);
    } catch (const std::exception &e) {
      std::printf("  %s:%d:%d: cannot lower (%s), skipped\n", spec.op.c_str(), spec.dim, spec.degree, e.what());
      continue;
    }
    StudySettings s;
    s.ablation = spec.studies.count("ablation"), s.spearman = spec.studies.count("spearman");
    s.topk = spec.studies.count("topk"), s.sensitivity = spec.studies.count("sensitivity");
    s.b = static_cast<size_t>(b.b), s.top = static_cast<size_t>(o.top), s.sample = static_cast<size_t>(o.sample);
    // One seed per case, fixed by -study_seed and the case (not by the case list).
    s.seed = static_cast<std::uint64_t>(o.seed) * 1000003u + static_cast<std::uint64_t>(spec.dim * 100 + spec.degree) * 7919u +
             static_cast<std::uint64_t>(spec.op.size() * 131 + static_cast<unsigned char>(spec.op[0]));
    s.threads = std::max(1, b.compile_threads);
    c.Q = c.lowered->tab.n_points();
    const KernelShape shape = KernelShape::from(c.lowered->ir, c.Q);
    const auto t0 = std::chrono::steady_clock::now();
    c.plan = plan_studies(shape, params, s);
    for (const Tiles &t : c.plan.unique()) {
      TimedCandidate tc;
      tc.schedule = Schedule::tiled(t);
      tc.model_seconds = t_heur(shape, t, params);
      c.timed.push_back(tc);
    }
    std::printf("  %-24s Q %3d  |Theta| %9lld%s  kernels %4zu  (%s; planned in %.1f s)\n", c.lowered->name().c_str(), c.Q,
                c.plan.top.space_size, c.plan.top.truncated ? "+" : " ", c.timed.size(), join(c.studies).c_str(), seconds_since(t0));
    std::fflush(stdout);
    cases.push_back(std::move(c));
  }
  return cases;
}

using Kernels = std::vector<std::unique_ptr<CudaKernel>>;

// Compiles and times one planned case; fills its measurements.
void run_case(StudyCase &c, Kernels kernels, const BenchOptions &b, const StudyOptions &o, const std::function<bool()> &stop)
{
  TuneSettings timing;
  timing.warmups = o.warmups, timing.min_runs = o.runs, timing.max_runs = o.runs, timing.min_seconds = 0;
  if (b.monitor) timing.monitor = [](const std::string &s) { std::printf("    %s\n", s.c_str()); };
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<BenchOperands> operands = upload_operands(*c.lowered, c.dim == 2 ? b.n2 : b.n3);
  c.cells = operands->mesh.n_cells;
  time_compiled_candidates(c.timed, kernels, *operands->data, timing, stop);
  c.timing_seconds = seconds_since(t0);
  c.complete = std::none_of(c.timed.begin(), c.timed.end(), [](const TimedCandidate &t) { return t.error == "not timed: stopped"; });
}

}  // namespace

DeviceParams params_from_file(const std::string &path)
{
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  json::Object o = json::parse(text.str());
  DeviceParams d;
  auto num = [&](const char *key, double &x) {
    if (const json::Value *v = o.find(key)) x = v->number;
  };
  num("beta_global", d.beta_global), num("beta_local", d.beta_local), num("beta_ldg", d.beta_ldg), num("flops_peak", d.flops_peak);
  num("local_max_bytes", d.local_max_bytes), num("local_max_per_group", d.local_max_per_group);
  num("sg_sat_global", d.sg_sat_global), num("sg_sat_local", d.sg_sat_local);
  auto whole = [&](const char *key, int &x) {
    if (const json::Value *v = o.find(key)) x = static_cast<int>(v->number);
  };
  whole("groups_max", d.groups_max), whole("multiprocessors", d.multiprocessors);
  return d;
}

namespace {

// The device and its parameters: a probe file alone with -study_plan_only, else device 0
// probed (cached). Throws what the device or the file throws.
DeviceParams study_device(const StudyOptions &o, cuda::DeviceInfo *info)
{
  DeviceParams params;
  if (o.plan_only) {
    params = params_from_file(o.device_params.empty() ? default_share_dir() + "/bench/h200_device_params.json" : o.device_params);
  } else {
    *info = cuda::open_device(0);
    params = load_or_probe(0, "", false);
    params.local_max_per_group = info->shared_per_group_optin;
    params.multiprocessors = info->multiprocessors;
  }
  params.barrier_seconds = o.barrier_seconds;
  return params;
}

// Times the planned cases in order while the next case's kernels compile, until `stop`.
void time_cases(std::vector<StudyCase> &cases, const cuda::DeviceInfo &info, const BenchOptions &b, const StudyOptions &o,
                const std::function<bool()> &stop)
{
  auto compile = [&info, &b](StudyCase &c) {
    StudyCase *p = &c;  // stays put: `cases` does not grow any more
    return std::async(std::launch::async, [p, &info, &b] { return compile_candidates(p->lowered->ir, p->lowered->tab, p->timed, info, b.compile_threads); });
  };
  std::future<Kernels> next;
  if (!cases.empty()) next = compile(cases.front());
  for (size_t i = 0; i < cases.size(); ++i) {
    StudyCase &c = cases[i];
    const auto t0 = std::chrono::steady_clock::now();
    Kernels kernels = next.get();
    c.compile_wait_seconds = seconds_since(t0);
    if (stop()) break;
    if (i + 1 < cases.size()) next = compile(cases[i + 1]);
    try {
      run_case(c, std::move(kernels), b, o, stop);
    } catch (const std::exception &e) {
      std::printf("  %s: FAILED: %s\n", c.lowered->name().c_str(), e.what());
    }
    c.ran = true;
    std::printf("[%zu/%zu] %s\n", i + 1, cases.size(), case_summary(c).c_str());
    std::fflush(stdout);
    if (stop()) break;
  }
  if (next.valid()) next.wait();  // its kernels reference a case that is still alive
}

}  // namespace

int run_study(const std::string &which, const BenchOptions &b)
{
  const auto t_start = std::chrono::steady_clock::now();
  StudyOptions o;
  if (read_options(which, o) != 0) return 2;
  cuda::DeviceInfo info;
  DeviceParams params;
  std::vector<CaseSpec> specs;
  try {
    params = study_device(o, &info);
    specs = case_list(o, b);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "femgpu-bench -study: %s\n", e.what());
    return 2;
  }
  // Plan every case before timing anything, so the cost is known up front.
  std::vector<StudyCase> cases = plan_cases(specs, params, b, o);
  size_t total = 0;
  for (const StudyCase &c : cases) total += c.timed.size();
  std::printf("%zu kernels to compile and time in %zu cases (%d warm-ups + %d runs each)\n", total, cases.size(), o.warmups, o.runs);
  std::fflush(stdout);
  if (o.plan_only) return 0;
  auto stop = [&] { return o.max_seconds > 0 && seconds_since(t_start) > o.max_seconds; };
  time_cases(cases, info, b, o, stop);
  if (stop()) std::printf("stopped: -study_max_seconds %g exceeded; the tables cover the finished cases\n", o.max_seconds);
  std::printf("%s", study_tables(cases, b.b).c_str());
  std::printf("wall time %.1f s\n", seconds_since(t_start));
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << study_json(cases, info.name, b, o.warmups, o.runs);
  }
  return 0;
}

}  // namespace femgpu
