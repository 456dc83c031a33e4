// femgpu-bench: the paper's 70 cases on the GPU, tuned as on first MatMult.
//
// For each operator (shipped form), dimension and degree: the paper's mesh (2D: 1280 x
// 1280 squares split into 3,276,800 triangles; 3D: 56^3 cubes split into 1,053,696
// tetrahedra) with lattice-numbered DOFs, random operands (FP64), tuning over SCPWI and
// the cost model's b best tiled candidates, then the best kernel's GFLOP/s (FLOPs of
// the untransformed kernel), its roofline (Eq. 16 with the paper's H200 constants),
// GDoF/s (output DOFs per second) and the paper's GDoF/s for the same case.
// Each row also has its physical bound (model/physical_bound.h: minimal DRAM bytes at the
// device's bandwidth or flops at its FP64 peak, whichever is longer) and the fraction of
// it reached, femgpu's measure; the Eq. 16 roofline stays as the paper's model.
// Tuning runs the default plan; -tune_plan replaces it or sets its parameters, with the
// text -mat_fem_gpu_tune_plan takes (tune/tune_plan.h).
// Writes a JSON array (-json FILE) and CSV rows (-csv FILE); prints a table and the
// summary lines "N of M cases at >= 50% of roofline" and "K of M at or above the paper".
// With -study NAME it runs the paper's studies of Tables 5-8 instead
// (femgpu_bench_study.cpp, docs/studies.md); with -rerank FILE it prints the cost
// model's terms for timed schedules, without a GPU (femgpu_bench_rerank.h).
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "tools/bench_case.h"
#include "tools/bench_verify.h"
#include "tools/femgpu_bench_rerank.h"
#include "tools/femgpu_bench_study.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"
#include "model/physical_bound.h"
#include "tune/cuda_tuner.h"
#include "probe/device_cache.h"
#include "probe/device_probe.h"
#include "petsc/petsc_compat.h"

using namespace femgpu;

namespace {

struct Row {
  std::string op, schedule, device, paper_verdict;
  int dim = 0, degree = 0, Q = 0, registers = 0, spills = 0, candidates = 0;
  long long n_cells = 0, dofs_out = 0, space = 0, shared = 0;
  double flops_per_cell = 0, ms = 0, gflops = 0, roofline = 0, fraction = 0, gdofs = 0, paper_gdofs = NAN, tune_s = 0;
  double scpwi_ms = 0, agreement = 0;
  double physical_ms = 0, physical_fraction = 0;
  std::string physical_bound;  // "dram" or "fp64"
  int verified_cells = 0;  // cells of the mesh the fastest kernel was checked on (bench_verify.h)
  double verify_error = NAN;
  std::string bound;
};

std::map<std::string, double> paper_gdofs(const std::string &path)
{
  std::map<std::string, double> m;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("operator", 0) == 0) continue;
    std::stringstream ss(line);
    std::string op, dim, deg, gf, frac, gd;
    std::getline(ss, op, ','), std::getline(ss, dim, ','), std::getline(ss, deg, ','), std::getline(ss, gf, ','),
        std::getline(ss, frac, ','), std::getline(ss, gd, ',');
    m[op + dim + "_" + deg] = std::stod(gd);
  }
  return m;
}

// What one application on the bench's mesh must move at least (physical_bound.h): the
// trial and test spaces are the same, each coefficient lives in the trial element.
OperatorTraffic lattice_traffic(const LatticeMesh &mesh, const ActionIR &ir)
{
  OperatorTraffic t;
  t.dofs_in = t.dofs_out = static_cast<long long>(mesh.n_dofs());
  t.coefficient_dofs = t.dofs_in * static_cast<long long>(ir.coefficients.size());
  t.map_entries = static_cast<long long>(mesh.map.size());
  t.coordinate_values = static_cast<long long>(mesh.coordinates.size());
  t.coordinate_map_entries = static_cast<long long>(mesh.coordinate_map.size());
  return t;
}

// One case: mesh, operands, tuning, measurements.
// Times the given schedules instead of tuning (-schedule: profiling, exact re-runs,
// side-by-side comparisons); several are separated by ';' and the fastest makes the row.
CudaTuneReport time_schedules(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                              const TuneSettings &settings, const std::string &schedules)
{
  CudaTuneReport report;
  std::stringstream list(schedules);
  for (std::string text; std::getline(list, text, ';');) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    text = text.substr(first, text.find_last_not_of(" \t") + 1 - first);  // "A; B" reads as "A;B"
    TimedCandidate c;
    c.schedule = parse_schedule(text);
    report.candidates.push_back(c);
  }
  if (report.candidates.empty()) throw std::runtime_error("-schedule names no schedule");
  std::vector<std::unique_ptr<CudaKernel>> kernels = compile_candidates(ir, tab, report.candidates, info, settings.compile_threads);
  report.best = time_compiled_candidates(report.candidates, kernels, data, settings);
  if (report.best < 0) throw std::runtime_error("no given schedule ran: " + report.candidates.front().error);
  report.best_kernel = std::move(kernels[static_cast<size_t>(report.best)]);
  return report;
}

Row run_case(const std::string &op, int dim, int k, int N, const TuneSettings &settings, const cuda::DeviceInfo &info,
             const DeviceParams &params, const std::string &forced, int verify_cells)
{
  std::unique_ptr<BenchCase> bench = lower_case(op, dim, k);
  const ActionIR &ir = bench->ir;
  const Tabulation &tab = bench->tab;
  std::unique_ptr<BenchOperands> operands = upload_operands(*bench, N);
  const LatticeMesh &mesh = operands->mesh;
  CudaTuneReport report = forced.empty() ? tune_cuda(ir, tab, *operands->data, info, params, settings)
                                          : time_schedules(ir, tab, *operands->data, info, settings, forced);
  Row r;
  r.op = op, r.dim = dim, r.degree = k, r.Q = tab.n_points(), r.n_cells = mesh.n_cells;
  r.dofs_out = static_cast<long long>(mesh.n_dofs());
  r.device = info.name;
  r.space = static_cast<long long>(report.space_size);
  r.candidates = static_cast<int>(report.candidates.size());
  r.tune_s = report.compile_seconds + report.timing_seconds;
  if (report.best < 0) throw std::runtime_error("no candidate ran: " + report.candidates.front().error);
  const TimedCandidate &best = report.candidates[static_cast<size_t>(report.best)];
  r.schedule = to_string(best.schedule);
  r.registers = best.registers, r.spills = best.local_bytes, r.shared = best.shared_bytes;
  r.ms = best.median_ms;
  r.scpwi_ms = report.candidates.front().median_ms;
  r.flops_per_cell = static_cast<double>(count_flops(ir, r.Q).total());
  r.gflops = r.flops_per_cell * static_cast<double>(r.n_cells) / (r.ms * 1e-3) / 1e9;
  KernelShape shape = KernelShape::from(ir, r.Q);
  const long long inputs = static_cast<long long>(mesh.n_dofs()) * (1 + static_cast<long long>(ir.coefficients.size()));
  Roofline roof = roofline(shape, r.flops_per_cell, r.n_cells, inputs, r.dofs_out, static_cast<long long>(mesh.coordinates.size()),
                           static_cast<long long>(mesh.map.size() + mesh.coordinate_map.size()), DeviceParams{});
  r.roofline = roof.gflops, r.bound = roof.bound;
  r.fraction = r.gflops / r.roofline;
  r.gdofs = static_cast<double>(r.dofs_out) / (r.ms * 1e-3) / 1e9;
  const PhysicalBound phys = physical_bound(lattice_traffic(mesh, ir), r.flops_per_cell * static_cast<double>(r.n_cells),
                                            best.schedule.strategy() == Strategy::TensorCore, PhysicalLimits{});
  r.physical_ms = phys.seconds * 1e3, r.physical_bound = phys.bound;
  r.physical_fraction = r.physical_ms / r.ms;
  if (verify_cells > 0) {
    // The reported kernel itself, on this mesh: a timed result is only kept if it is right.
    if (!report.best_kernel) throw std::logic_error("femgpu-bench: the fastest kernel was not kept");
    const BenchVerification v = verify_on_sample(*bench, *operands, *report.best_kernel, verify_cells, static_cast<unsigned>(1000 * dim + k));
    r.verified_cells = v.cells, r.verify_error = v.relative_error;
    const double tolerance = best.schedule.precision() == Precision::FP64 ? 1e-10 : 1e-4;
    if (!(v.relative_error <= tolerance)) {
      std::ostringstream os;
      os << "the fastest kernel (" << r.schedule << ") differs from the CPU reference on " << v.cells << " cells of the mesh: relative error "
         << v.relative_error << " > " << tolerance;
      throw std::runtime_error(os.str());
    }
  }
  return r;
}

std::string json_row(const Row &r)
{
  std::ostringstream os;
  os << "{\"operator\": \"" << r.op << "\", \"dim\": " << r.dim << ", \"degree\": " << r.degree << ", \"Q\": " << r.Q
     << ", \"cells\": " << r.n_cells << ", \"dofs_out\": " << r.dofs_out << ", \"flops_per_cell\": " << r.flops_per_cell
     << ", \"time_ms\": " << r.ms << ", \"gflops\": " << r.gflops << ", \"roofline_gflops\": " << r.roofline
     << ", \"roofline_bound\": \"" << r.bound << "\", \"roofline_fraction\": " << r.fraction << ", \"physical_ms\": " << r.physical_ms
     << ", \"physical_bound\": \"" << r.physical_bound << "\", \"physical_fraction\": " << r.physical_fraction << ", \"gdofs\": " << r.gdofs
     << ", \"paper_gdofs\": " << (std::isnan(r.paper_gdofs) ? std::string("null") : std::to_string(r.paper_gdofs))
     << ", \"vs_paper\": \"" << r.paper_verdict << "\", \"schedule\": \"" << r.schedule << "\", \"scpwi_time_ms\": " << r.scpwi_ms
     << ", \"registers\": " << r.registers << ", \"spill_bytes\": " << r.spills << ", \"shared_bytes\": " << r.shared << ", \"search_space\": " << r.space
     << ", \"timed_candidates\": " << r.candidates << ", \"tune_seconds\": " << r.tune_s << ", \"verified_cells\": " << r.verified_cells
     << ", \"verify_rel_err\": " << (std::isnan(r.verify_error) ? std::string("null") : std::to_string(r.verify_error)) << ", \"device\": \"" << r.device << "\"}";
  return os.str();
}

// The option readers take PETSc's options block object by its macro name
// (PetscOptionsObject), as the PetscOptions* macros expect, whatever its type in this
// PETSc version.

// The bench's options: which cases, how they are tuned and timed, what is written.
struct BenchArgs {
  BenchOptions cases;  // operators, dimensions, degrees, mesh sizes, compile threads, monitor
  TuneSettings settings;
  std::string forced, study, json, csv, rerank_in, rerank_params;
  std::vector<double> rerank_ns{0, kModelBarrierSeconds * 1e9};
  int verify_cells = 1024;
};

std::vector<std::string> split_commas(const std::string &text)
{
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string t; std::getline(ss, t, ',');) out.push_back(t);
  return out;
}

template <class Items> PetscErrorCode read_case_options(Items PetscOptionsObject, BenchOptions *o)
{
  char ops[256] = "mass,laplace,helmholtz,elasticity,hyperelasticity";
  PetscInt dims[2] = {2, 3}, nd = 2, n2 = o->n2, n3 = o->n3, lo = o->min_degree, max2 = o->max_degree_2d, max3 = o->max_degree_3d;
  PetscInt threads = o->compile_threads;
  PetscBool dims_set = PETSC_FALSE, monitor = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(PetscOptionsString("-ops", "operators", "", ops, ops, sizeof(ops), nullptr));
  PetscCall(PetscOptionsIntArray("-dims", "dimensions", "", dims, &nd, &dims_set));
  if (!dims_set) nd = 2;  // PETSc sets the count to 0 when the option is absent
  PetscCall(PetscOptionsInt("-n2", "squares per side in 2D (paper: 1280)", "", n2, &n2, nullptr));
  PetscCall(PetscOptionsInt("-n3", "cubes per side in 3D (paper: 56)", "", n3, &n3, nullptr));
  PetscCall(PetscOptionsInt("-min_degree", "lowest degree", "", lo, &lo, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_2d", "highest degree in 2D", "", max2, &max2, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_3d", "highest degree in 3D", "", max3, &max3, nullptr));
  PetscCall(PetscOptionsInt("-compile_threads", "NVRTC compilations in parallel", "", threads, &threads, nullptr));
  PetscCall(PetscOptionsBool("-monitor", "print every timed candidate", "", monitor, &monitor, nullptr));
  for (PetscInt i = 0; i < nd; ++i)
    PetscCheck(dims[i] == 2 || dims[i] == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-dims has %" PetscInt_FMT "; it takes 2 and 3", dims[i]);
  PetscCheck(n2 > 0 && n3 > 0 && lo >= 1 && threads >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-n2, -n3, -min_degree and -compile_threads are positive");
  o->ops = split_commas(ops);
  o->dims.assign(dims, dims + nd);
  o->n2 = static_cast<int>(n2), o->n3 = static_cast<int>(n3), o->min_degree = static_cast<int>(lo);
  o->max_degree_2d = static_cast<int>(max2), o->max_degree_3d = static_cast<int>(max3);
  o->compile_threads = static_cast<int>(threads), o->monitor = monitor == PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tuning plan and the timing protocol (tuner.h's TuneSettings).
template <class Items> PetscErrorCode read_tuning_options(Items PetscOptionsObject, TuneSettings *s, int compile_threads)
{
  char plan[4096] = "";
  PetscInt min_runs = s->min_runs, warmups = s->warmups;
  PetscReal min_seconds = s->min_seconds, budget = 10;
  PetscFunctionBegin;
  PetscCall(PetscOptionsString("-tune_plan", "the tuning plan or its parameters, as -mat_fem_gpu_tune_plan takes them (\"print\" lists the default)", "",
                               plan, plan, sizeof(plan), nullptr));
  PetscCall(PetscOptionsReal("-tune_budget", "seconds each case's tuning may take, as -mat_fem_gpu_tune_budget (0: the whole plan)", "", budget, &budget,
                             nullptr));
  PetscCall(PetscOptionsReal("-min_seconds", "time each candidate at least this long (and >= -min_runs runs)", "", min_seconds, &min_seconds, nullptr));
  PetscCall(PetscOptionsInt("-min_runs", "time each candidate at least this many runs", "", min_runs, &min_runs, nullptr));
  PetscCall(PetscOptionsInt("-warmups", "untimed launches before timing each candidate", "", warmups, &warmups, nullptr));
  PetscCheck(min_seconds >= 0 && min_runs >= 1 && warmups >= 0 && budget >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-min_seconds, -warmups and -tune_budget are >= 0, -min_runs >= 1");
  try {
    if (*plan) *s = with_plan_text(*s, plan);
  } catch (const TuneParamError &e) {
    SETERRQ(PETSC_COMM_SELF, e.out_of_range ? PETSC_ERR_ARG_OUTOFRANGE : PETSC_ERR_ARG_WRONG, "-tune_plan \"%s\": %s", plan, e.what());
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-tune_plan \"%s\": %s", plan, e.what());
  }
  s->min_seconds = min_seconds, s->min_runs = static_cast<int>(min_runs), s->warmups = static_cast<int>(warmups);
  s->compile_threads = compile_threads, s->budget_seconds = budget;
  if (*plan && parse_tune_plan(plan).print) std::printf("tuning plan: %s\nparameters: %s\n", to_string(settings_plan(*s, default_cuda_plan(*s))).c_str(), tune_params_text(*s).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What is written, and the modes that replace the normal run (-schedule, -study, -rerank).
template <class Items> PetscErrorCode read_output_options(Items PetscOptionsObject, BenchArgs *a)
{
  char json[PETSC_MAX_PATH_LEN] = "", csv[PETSC_MAX_PATH_LEN] = "", forced[4096] = "", study[64] = "";
  char rerank_in[PETSC_MAX_PATH_LEN] = "", rerank_params[PETSC_MAX_PATH_LEN] = "";
  PetscReal ns[16];
  PetscInt n_ns = 16, verify = a->verify_cells;
  PetscBool ns_set = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-verify_cells",
                            "check the fastest kernel of each case on this many random cells of its mesh against the FP64 CPU reference; "
                            "a case whose kernel differs fails (0: off)",
                            "", verify, &verify, nullptr));
  PetscCall(PetscOptionsString("-json", "write the rows as a JSON array", "", json, json, sizeof(json), nullptr));
  PetscCall(PetscOptionsString("-csv", "write the rows as CSV", "", csv, csv, sizeof(csv), nullptr));
  PetscCall(PetscOptionsString("-schedule", "time these schedules (as MatView prints them; ';' between several) instead of tuning", "", forced, forced,
                               sizeof(forced), nullptr));
  PetscCall(PetscOptionsString("-study", "run the paper's studies instead: ablation, spearman, topk, sensitivity or all (docs/studies.md)", "", study,
                               study, sizeof(study), nullptr));
  PetscCall(PetscOptionsString("-rerank", "print the cost model's terms for the timed schedules in this file (operator|dim|degree|schedule|... lines; - for stdin) and stop; needs no GPU",
                               "", rerank_in, rerank_in, sizeof(rerank_in), nullptr));
  PetscCall(PetscOptionsString("-rerank_device_params", "-rerank: device parameters, a probe cache JSON (default share/femgpu/bench/h200_device_params.json)", "",
                               rerank_params, rerank_params, sizeof(rerank_params), nullptr));
  PetscCall(PetscOptionsRealArray("-rerank_barrier_ns", "-rerank: barrier costs in ns, one t_heur column each (default 0,150)", "", ns, &n_ns, &ns_set));
  a->verify_cells = static_cast<int>(std::max<PetscInt>(0, verify));
  a->json = json, a->csv = csv, a->forced = forced, a->study = study, a->rerank_in = rerank_in, a->rerank_params = rerank_params;
  if (ns_set) a->rerank_ns.assign(ns, ns + n_ns);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode read_options(BenchArgs *a)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, "", "femgpu-bench options", "");
  PetscCall(read_case_options(PetscOptionsObject, &a->cases));
  PetscCall(read_tuning_options(PetscOptionsObject, &a->settings, a->cases.compile_threads));
  PetscCall(read_output_options(PetscOptionsObject, a));
  PetscOptionsEnd();
  a->cases.b = static_cast<int>(a->settings.candidates);
  if (a->cases.monitor) a->settings.monitor = [](const std::string &s) { std::printf("    %s\n", s.c_str()); };
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -rerank: the cost model's terms for recorded timings, no GPU. Returns the exit code.
int run_rerank(const BenchArgs &a)
{
  try {
    const DeviceParams params = params_from_file(!a.rerank_params.empty() ? a.rerank_params : default_share_dir() + "/bench/h200_device_params.json");
    if (a.rerank_in == "-") {
      rerank(std::cin, std::cout, params, a.rerank_ns);
      return 0;
    }
    std::ifstream in(a.rerank_in);
    if (!in) throw std::runtime_error("femgpu-bench -rerank: cannot read " + a.rerank_in);
    rerank(in, std::cout, params, a.rerank_ns);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

struct Tally {
  std::vector<Row> rows;
  int at_half = 0, at_paper = 0, failed = 0;
};

void print_header(const cuda::DeviceInfo &info)
{
  std::printf("device: %s (%s); physical limits: %s\n%-16s %3s %3s %5s %10s %9s %9s %6s %6s %8s %8s %6s  %s\n", info.name.c_str(), info.arch().c_str(),
              PhysicalLimits{}.source.c_str(), "operator", "dim", "deg", "Q", "time_ms", "GFLOP/s", "roofline", "frac", "phys", "GDoF/s", "paper", "vs",
              "schedule");
}

// Runs one case into the tally; a case that fails is counted and reported, not fatal.
void run_and_print(const BenchArgs &a, const std::string &op, int dim, int k, const cuda::DeviceInfo &info, const DeviceParams &params,
                   const std::map<std::string, double> &paper, Tally *t)
{
  try {
    Row r = run_case(op, dim, k, dim == 2 ? a.cases.n2 : a.cases.n3, a.settings, info, params, a.forced, a.verify_cells);
    auto it = paper.find(op + std::to_string(dim) + "_" + std::to_string(k));
    if (it != paper.end()) {
      r.paper_gdofs = it->second;
      r.paper_verdict = r.gdofs >= it->second * 1.005 ? "above" : r.gdofs >= it->second * 0.995 ? "at" : "below";
      t->at_paper += r.paper_verdict != "below";
    }
    t->at_half += r.fraction >= 0.5;
    std::printf("%-16s %3d %3d %5d %10.4f %9.0f %9.0f %6.2f %6.2f %8.2f %8.2f %6s  %s\n", op.c_str(), dim, k, r.Q, r.ms, r.gflops, r.roofline,
                r.fraction, r.physical_fraction, r.gdofs, r.paper_gdofs, r.paper_verdict.c_str(), r.schedule.c_str());
    if (r.verified_cells > 0) std::printf("    verified on %d cells of the mesh: relative error %.3g\n", r.verified_cells, r.verify_error);
    std::fflush(stdout);
    t->rows.push_back(r);
  } catch (const std::exception &e) {
    std::printf("%-16s %3d %3d  FAILED: %s\n", op.c_str(), dim, k, e.what());
    ++t->failed;
  }
}

void write_json(const std::string &path, const std::vector<Row> &rows)
{
  std::ofstream out(path);
  out << "[\n";
  for (size_t i = 0; i < rows.size(); ++i) out << "  " << json_row(rows[i]) << (i + 1 < rows.size() ? ",\n" : "\n");
  out << "]\n";
}

void write_csv(const std::string &path, const std::vector<Row> &rows)
{
  std::ofstream out(path);
  out << "operator,dim,degree,Q,time_ms,gflops,roofline_gflops,roofline_fraction,physical_ms,physical_bound,physical_fraction,gdofs,paper_gdofs,"
         "vs_paper,schedule,registers,spill_bytes,shared_bytes,tune_seconds,verified_cells,verify_rel_err,device\n";
  for (const Row &r : rows)
    out << r.op << "," << r.dim << "," << r.degree << "," << r.Q << "," << r.ms << "," << r.gflops << "," << r.roofline << "," << r.fraction << ","
        << r.physical_ms << "," << r.physical_bound << "," << r.physical_fraction << "," << r.gdofs << "," << r.paper_gdofs << "," << r.paper_verdict
        << "," << r.schedule << "," << r.registers << "," << r.spills << "," << r.shared << "," << r.tune_s << "," << r.verified_cells << ","
        << r.verify_error << "," << r.device << "\n";
}

// The normal run: every case on device 0. Returns the exit code.
int run_cases(const BenchArgs &a)
{
  cuda::DeviceInfo info;
  try {
    info = cuda::open_device(0);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "femgpu-bench: %s\n", e.what());
    return 2;
  }
  // Rank with the probed device (cached); the roofline keeps the paper's H200 constants.
  DeviceParams params = load_or_probe(0, "", false);
  params.local_max_per_group = info.shared_per_group_optin;
  std::printf("cost model: beta_global %.2f TB/s, beta_local %.2f TB/s, SG_sat %g / %g warps per SM (probed)\n", params.beta_global / 1e12,
              params.beta_local / 1e12, params.sg_sat_global, params.sg_sat_local);
  const std::map<std::string, double> paper = paper_gdofs(default_share_dir() + "/bench/paper_h200nvl.csv");
  Tally t;
  print_header(info);
  for (const std::string &op : a.cases.ops)
    for (int dim : a.cases.dims)
      for (int k = a.cases.min_degree; k <= (dim == 2 ? a.cases.max_degree_2d : a.cases.max_degree_3d); ++k) run_and_print(a, op, dim, k, info, params, paper, &t);
  const size_t n = t.rows.size();
  std::printf("%d of %zu cases at >= 50%% of roofline\n%d of %zu cases at or above the paper's GDoF/s\n%d cases failed\n", t.at_half, n, t.at_paper, n,
              t.failed);
  if (!a.json.empty()) write_json(a.json, t.rows);
  if (!a.csv.empty()) write_csv(a.csv, t.rows);
  return t.failed ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv)
{
  BenchArgs args;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "femgpu-bench: the paper's 70 cases, tuned, on the GPU"));
  PetscCall(read_options(&args));
  const int rc = !args.rerank_in.empty() ? run_rerank(args) : !args.study.empty() ? run_study(args.study, args.cases) : run_cases(args);
  PetscCall(PetscFinalize());
  return rc;
}
