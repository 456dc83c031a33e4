// femgpu-bench: the paper's 70 cases on the GPU, tuned as on first MatMult.
//
// For each operator (shipped form), dimension and degree: the paper's mesh (2D: 1280 x
// 1280 squares split into 3,276,800 triangles; 3D: 56^3 cubes split into 1,053,696
// tetrahedra) with lattice-numbered DOFs, random operands (FP64), tuning over SCPWI and
// the cost model's b best tiled candidates, then the best kernel's GFLOP/s (FLOPs of
// the untransformed kernel), its roofline (Eq. 16 with the paper's H200 constants),
// GDoF/s (output DOFs per second) and the paper's GDoF/s for the same case.
// Each row also has its physical bound (tune/physical_bound.h: minimal DRAM bytes at the
// device's bandwidth or flops at its FP64 peak, whichever is longer) and the fraction of
// it reached, femgpu's measure; the Eq. 16 roofline stays as the paper's model; and the
// baseline a user would run instead, cuSPARSE SpMV of the assembled operator (bench_spmv.h).
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

#include "runtime/cuda_assembled.h"
#include "runtime/cuda_backend.h"
#include "tools/bench_case.h"
#include "tools/bench_spmv.h"
#include "tools/bench_verify.h"
#include "tools/femgpu_bench_options.h"
#include "tools/femgpu_bench_rerank.h"
#include "tools/femgpu_bench_study.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"
#include "tune/physical_bound.h"
#include "runtime/cuda_tuner.h"
#include "probe/device_cache.h"
#include "probe/device_probe.h"
#include "petsc/base/petsc_compat.h"

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
  SpmvBaseline spmv;
  std::string commit;
  bool budget_spent = false;  // the tuning budget left candidates untimed
  int verified_cells = 0;  // cells of the mesh the fastest kernel was checked on (bench_verify.h)
  double verify_error = NAN;
  std::string bound;
};

std::map<std::string, double> paper_gdofs(const std::string &path)
{
  std::map<std::string, double> m;
  std::ifstream in(path);
  if (!in) std::fprintf(stderr, "femgpu-bench: cannot read the paper's GDoF/s (%s): the paper column stays empty\n", path.c_str());
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

// The case's SpMV baseline (bench_spmv.h), its cell matrices from the winner's backend;
// none where it cannot run (no backend is made then).
SpmvBaseline spmv_baseline(const BenchCase &bench, int N, std::unique_ptr<CudaKernel> kernel, const Schedule &schedule, double cap)
{
  SpmvBaseline s;
  s.skipped = spmv_unavailable(cap);
  if (!s.skipped.empty()) return s;
  CudaBackend backend = kernel ? CudaBackend(bench.ir, bench.tab, std::move(kernel), 0) : CudaBackend(bench.ir, bench.tab, schedule, 0);
  return time_spmv(bench, N, backend, cap);
}

// The limits t_phys is measured against: an H200's measured anchors on an H200
// (PhysicalLimits' defaults, docs/results.md), else the probe's of this device.
PhysicalLimits bench_limits(const cuda::DeviceInfo &info, const DeviceParams &probed)
{
  if (info.name.find("H200") != std::string::npos) return PhysicalLimits{};
  return probed_limits(probed, "femgpu-probe on " + info.name);
}

// The flops of one application: the action's per cell, or for the assembled operator its
// SpMV's, two per nonzero (its matrix as tuning timed it).
double application_flops(const ActionIR &ir, const Tabulation &tab, int n_cells, const CudaKernel *kernel)
{
  if (kernel && kernel->assembled()) return 2.0 * static_cast<double>(kernel->assembled()->nonzeros());
  return static_cast<double>(count_flops(ir, tab.n_points(), tab.test_identity).total()) * static_cast<double>(n_cells);
}

Row run_case(const std::string &op, int dim, int k, int N, const TuneSettings &settings, const cuda::DeviceInfo &info,
             const DeviceParams &params, const std::string &forced, int verify_cells, double spmv_cap, Points points)
{
  std::unique_ptr<BenchCase> bench = lower_case(op, dim, k, points);
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
  r.candidates = static_cast<int>(candidates_timed(report));
  r.budget_spent = report.budget_spent;
  r.tune_s = report.compile_seconds + report.timing_seconds;
  if (report.best < 0) throw std::runtime_error("no candidate ran: " + report.candidates.front().error);
  const TimedCandidate &best = report.candidates[static_cast<size_t>(report.best)];
  r.schedule = to_string(best.schedule);
  r.registers = best.registers, r.spills = best.local_bytes, r.shared = best.shared_bytes;
  r.ms = best.median_ms;
  r.scpwi_ms = report.candidates.front().median_ms;
  r.flops_per_cell = application_flops(ir, tab, r.n_cells, report.best_kernel.get()) / static_cast<double>(r.n_cells);
  r.gflops = r.flops_per_cell * static_cast<double>(r.n_cells) / (r.ms * 1e-3) / 1e9;
  KernelShape shape = KernelShape::from(ir, r.Q);
  const long long inputs = static_cast<long long>(mesh.n_dofs()) * (1 + static_cast<long long>(ir.coefficients.size()));
  Roofline roof = roofline(shape, r.flops_per_cell, r.n_cells, inputs, r.dofs_out, static_cast<long long>(mesh.coordinates.size()),
                           static_cast<long long>(mesh.map.size() + mesh.coordinate_map.size()), DeviceParams{});
  r.roofline = roof.gflops, r.bound = roof.bound;
  r.fraction = r.gflops / r.roofline;
  r.gdofs = static_cast<double>(r.dofs_out) / (r.ms * 1e-3) / 1e9;
  const CudaAssembledMatrix *assembled = report.best_kernel ? report.best_kernel->assembled() : nullptr;
  const OperatorTraffic traffic = assembled ? assembled_traffic(r.dofs_out, r.dofs_out, assembled->nonzeros())
                                            : lattice_traffic(mesh, static_cast<int>(ir.coefficients.size()));
  const PhysicalBound phys = physical_bound(traffic, r.flops_per_cell * static_cast<double>(r.n_cells),
                                            best.schedule.strategy() == Strategy::TensorCore, bench_limits(info, params));
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
  operands.reset();  // the SpMV baseline's matrix gets the device memory
  r.spmv = spmv_baseline(*bench, N, std::move(report.best_kernel), best.schedule, spmv_cap);
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
     << ", \"timed_candidates\": " << r.candidates << ", \"budget_spent\": " << (r.budget_spent ? "true" : "false") << ", \"tune_seconds\": " << r.tune_s << ", \"verified_cells\": " << r.verified_cells
     << ", \"verify_rel_err\": " << (std::isnan(r.verify_error) ? std::string("null") : std::to_string(r.verify_error))
     << ", \"spmv_gdofs\": " << (r.spmv.skipped.empty() ? std::to_string(r.spmv.gdofs) : std::string("null"))
     << ", \"spmv_matmult_gdofs\": " << (r.spmv.skipped.empty() ? std::to_string(r.spmv.matmult_gdofs) : std::string("null")) << ", \"spmv_dofs\": " << r.spmv.dofs
     << ", \"spmv_nonzeros\": " << r.spmv.nonzeros << ", \"spmv_intervals\": " << r.spmv.intervals << ", \"spmv_assembly_seconds\": " << r.spmv.assembly_seconds
     << ", \"device\": \"" << r.device << "\", \"commit\": \"" << r.commit << "\"}";
  return os.str();
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

void print_header(const cuda::DeviceInfo &info, const DeviceParams &params)
{
  // SpMV: cuSPARSE's kernel (CUDA events, as femgpu's); MatMult: PETSc's (host clock).
  std::printf("device: %s (%s); physical limits: %s\n%-16s %3s %3s %5s %10s %9s %9s %6s %6s %8s %8s %6s %8s %8s %6s  %s\n", info.name.c_str(),
              info.arch().c_str(), bench_limits(info, params).source.c_str(), "operator", "dim", "deg", "Q", "time_ms", "GFLOP/s", "roofline", "frac", "phys", "GDoF/s",
              "paper", "vs", "SpMV", "MatMult", "tune_s", "schedule");
}

// Runs one case into the tally; a case that fails is counted and reported, not fatal.
void run_and_print(const BenchArgs &a, const std::string &op, int dim, int k, const cuda::DeviceInfo &info, const DeviceParams &params,
                   const std::map<std::string, double> &paper, Tally *t)
{
  try {
    Row r = run_case(op, dim, k, dim == 2 ? a.cases.n2 : a.cases.n3, a.settings, info, params, a.forced, a.verify_cells, a.spmv_max_cell_entries,
                     a.cases.compress_points ? Points::Compressed : Points::Rule);
    r.commit = a.commit;
    auto it = paper.find(op + std::to_string(dim) + "_" + std::to_string(k));
    if (it != paper.end()) {
      r.paper_gdofs = it->second;
      r.paper_verdict = r.gdofs >= it->second * 1.005 ? "above" : r.gdofs >= it->second * 0.995 ? "at" : "below";
      t->at_paper += r.paper_verdict != "below";
    }
    t->at_half += r.fraction >= 0.5;
    const bool spmv = r.spmv.skipped.empty();
    std::printf("%-16s %3d %3d %5d %10.4f %9.0f %9.0f %6.2f %6.2f %8.2f %8.2f %6s %8.2f %8.2f %6.1f  %s\n", op.c_str(), dim, k, r.Q, r.ms, r.gflops,
                r.roofline, r.fraction, r.physical_fraction, r.gdofs, r.paper_gdofs, r.paper_verdict.c_str(), spmv ? r.spmv.gdofs : NAN,
                spmv ? r.spmv.matmult_gdofs : NAN, r.tune_s, r.schedule.c_str());
    if (!r.spmv.skipped.empty()) std::printf("    SpMV baseline not measured: %s\n", r.spmv.skipped.c_str());
    else if (r.spmv.intervals != (dim == 2 ? a.cases.n2 : a.cases.n3))
      std::printf("    SpMV baseline on %d intervals per side (%lld DOFs, %lld nonzeros): the case's matrix is above -spmv_max_cell_entries\n",
                  r.spmv.intervals, r.spmv.dofs, r.spmv.nonzeros);
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
  out << "operator,dim,degree,Q,cells,dofs_out,time_ms,gflops,roofline_gflops,roofline_fraction,physical_ms,physical_bound,physical_fraction,gdofs,paper_gdofs,"
         "vs_paper,spmv_gdofs,spmv_matmult_gdofs,spmv_dofs,spmv_nonzeros,spmv_intervals,schedule,registers,spill_bytes,shared_bytes,tune_seconds,timed_candidates,"
         "budget_spent,verified_cells,verify_rel_err,device,commit\n";
  for (const Row &r : rows) {
    const bool spmv = r.spmv.skipped.empty();
    out << r.op << "," << r.dim << "," << r.degree << "," << r.Q << "," << r.n_cells << "," << r.dofs_out << "," << r.ms << "," << r.gflops << "," << r.roofline << "," << r.fraction << ","
        << r.physical_ms << "," << r.physical_bound << "," << r.physical_fraction << "," << r.gdofs << "," << r.paper_gdofs << "," << r.paper_verdict
        << "," << (spmv ? std::to_string(r.spmv.gdofs) : "") << "," << (spmv ? std::to_string(r.spmv.matmult_gdofs) : "") << ","
        << (spmv ? std::to_string(r.spmv.dofs) : "") << ","
        << (spmv ? std::to_string(r.spmv.nonzeros) : "") << "," << (spmv ? std::to_string(r.spmv.intervals) : "") << "," << r.schedule << ","
        << r.registers << "," << r.spills << "," << r.shared << "," << r.tune_s << "," << r.candidates << "," << (r.budget_spent ? 1 : 0) << ","
        << r.verified_cells << "," << r.verify_error << "," << r.device << "," << r.commit << "\n";
  }
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
  print_header(info, params);
  std::fflush(stdout);  // a run killed in its first case still shows what it was on
  for (const std::string &op : a.cases.ops)
    for (int dim : a.cases.dims)
      for (int k = a.cases.min_degree; k <= (dim == 2 ? a.cases.max_degree_2d : a.cases.max_degree_3d); ++k) {
        run_and_print(a, op, dim, k, info, params, paper, &t);
        if (!a.csv.empty()) write_csv(a.csv, t.rows);  // after every case: a run cut short keeps its rows
        if (!a.json.empty()) write_json(a.json, t.rows);
      }
  const size_t n = t.rows.size();
  std::printf("%d of %zu cases at >= 50%% of roofline\n%d of %zu cases at or above the paper's GDoF/s\n%d cases failed\n", t.at_half, n, t.at_paper, n,
              t.failed);
  return t.failed ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv)
{
  BenchArgs args;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "femgpu-bench: the paper's 70 cases, tuned, on the GPU"));
  PetscCall(read_bench_options(&args));
  const int rc = !args.rerank_in.empty() ? run_rerank(args) : !args.study.empty() ? run_study(args.study, args.cases) : run_cases(args);
  PetscCall(PetscFinalize());
  return rc;
}
