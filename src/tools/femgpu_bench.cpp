// femgpu-bench: the paper's 70 cases on the GPU, tuned as on first MatMult.
//
// For each operator (shipped form), dimension and degree: the paper's mesh (2D: 1280 x
// 1280 squares split into 3,276,800 triangles; 3D: 56^3 cubes split into 1,053,696
// tetrahedra) with lattice-numbered DOFs, random operands (FP64), tuning over SCPWI and
// the cost model's b best tiled candidates, then the best kernel's GFLOP/s (FLOPs of
// the untransformed kernel), its roofline (Eq. 16 with the paper's H200 constants),
// GDoF/s (output DOFs per second) and the paper's GDoF/s for the same case.
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
#include "tune/cuda_tuner.h"
#include "probe/device_cache.h"
#include "probe/device_probe.h"

using namespace femgpu;

namespace {

struct Row {
  std::string op, schedule, device, paper_verdict;
  int dim = 0, degree = 0, Q = 0, registers = 0, spills = 0, candidates = 0;
  long long n_cells = 0, dofs_out = 0, space = 0, shared = 0;
  double flops_per_cell = 0, ms = 0, gflops = 0, roofline = 0, fraction = 0, gdofs = 0, paper_gdofs = NAN, tune_s = 0;
  double scpwi_ms = 0, agreement = 0;
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
     << ", \"roofline_bound\": \"" << r.bound << "\", \"roofline_fraction\": " << r.fraction << ", \"gdofs\": " << r.gdofs
     << ", \"paper_gdofs\": " << (std::isnan(r.paper_gdofs) ? std::string("null") : std::to_string(r.paper_gdofs))
     << ", \"vs_paper\": \"" << r.paper_verdict << "\", \"schedule\": \"" << r.schedule << "\", \"scpwi_time_ms\": " << r.scpwi_ms
     << ", \"registers\": " << r.registers << ", \"spill_bytes\": " << r.spills << ", \"shared_bytes\": " << r.shared << ", \"search_space\": " << r.space
     << ", \"timed_candidates\": " << r.candidates << ", \"tune_seconds\": " << r.tune_s << ", \"verified_cells\": " << r.verified_cells
     << ", \"verify_rel_err\": " << (std::isnan(r.verify_error) ? std::string("null") : std::to_string(r.verify_error)) << ", \"device\": \"" << r.device << "\"}";
  return os.str();
}

}  // namespace

int main(int argc, char **argv)
{
  char ops_s[256] = "mass,laplace,helmholtz,elasticity,hyperelasticity", json[PETSC_MAX_PATH_LEN] = "", csv[PETSC_MAX_PATH_LEN] = "";
  PetscInt verify_cells = 1024, n2 = 1280, n3 = 56, max2 = 8, max3 = 6, min_degree = 1, dims[2] = {2, 3}, nd = 2, b = 9;
  PetscBool monitor = PETSC_FALSE;
  PetscReal min_seconds = 0.2, cutoff = 0;
  char forced_s[4096] = "";
  PetscInt tq_classes = 6, per_tiling = 2, paper_model = 3;
  PetscReal barrier_ns = kModelBarrierSeconds * 1e9;
  PetscBool unrolled = PETSC_TRUE;
  PetscInt warmups = 5, low_words = 48, shared_twins = 2, warp_twins = 2, interleaved_twins = 2, bound_twins = 2, cell_twins = 2, half_twins = 2, local_search = 2, mma_count = 6, shared_above = 128, fit_words = 112, fit_count = 3;
  PetscInt threads = 16, min_runs = 15, classes[16], n_classes = 16;
  PetscBool classes_set = PETSC_FALSE, scpwi_set = PETSC_FALSE, constant_tables = PETSC_TRUE, lanes = PETSC_TRUE;
  PetscInt scpwi_sizes[8] = {32, 64, 128, 256}, n_scpwi = 8;
  char study[64] = "";
  char rerank_in[PETSC_MAX_PATH_LEN] = "", rerank_params[PETSC_MAX_PATH_LEN] = "";
  PetscReal rerank_ns[16] = {0, kModelBarrierSeconds * 1e9};
  PetscInt n_rerank_ns = 16;
  PetscBool rerank_ns_set = PETSC_FALSE;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "femgpu-bench: the paper's 70 cases, tuned, on the GPU"));
  PetscOptionsBegin(PETSC_COMM_WORLD, "", "femgpu-bench options", "");
  PetscCall(PetscOptionsString("-ops", "operators", "", ops_s, ops_s, sizeof(ops_s), nullptr));
  PetscBool dims_set = PETSC_FALSE;
  PetscCall(PetscOptionsIntArray("-dims", "dimensions", "", dims, &nd, &dims_set));
  if (!dims_set) nd = 2;  // PETSc sets the count to 0 when the option is absent
  PetscCall(PetscOptionsInt("-n2", "squares per side in 2D (paper: 1280)", "", n2, &n2, nullptr));
  PetscCall(PetscOptionsInt("-n3", "cubes per side in 3D (paper: 56)", "", n3, &n3, nullptr));
  PetscCall(PetscOptionsInt("-min_degree", "lowest degree", "", min_degree, &min_degree, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_2d", "highest degree in 2D", "", max2, &max2, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_3d", "highest degree in 3D", "", max3, &max3, nullptr));
  PetscCall(PetscOptionsInt("-b", "tiled candidates timed (the cost model's best)", "", b, &b, nullptr));
  PetscCall(PetscOptionsBool("-monitor", "print every timed candidate", "", monitor, &monitor, nullptr));
  PetscCall(PetscOptionsReal("-min_seconds", "time each candidate at least this long (and >= 15 runs)", "", min_seconds, &min_seconds, nullptr));
  PetscCall(PetscOptionsInt("-compile_threads", "NVRTC compilations in parallel", "", threads, &threads, nullptr));
  PetscCall(PetscOptionsInt("-min_runs", "time each candidate at least this many runs", "", min_runs, &min_runs, nullptr));
  PetscCall(PetscOptionsInt("-warmups", "untimed launches before timing each candidate", "", warmups, &warmups, nullptr));
  PetscCall(PetscOptionsReal("-cutoff", "tuning: time in full only candidates whose second launch is within this factor of the fastest (0: off; a fem_gpu Mat: -mat_fem_gpu_tune_plan \"param cutoff=f\")",
                             "", cutoff, &cutoff, nullptr));
  PetscCheck(cutoff == 0 || cutoff > 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-cutoff is %g; it is 0 (off) or a factor above 1", (double)cutoff);
  PetscCall(PetscOptionsInt("-low_register_words", "also time low-register candidates up to this footprint (0: off)", "", low_words, &low_words,
                            nullptr));
  PetscCall(PetscOptionsInt("-shared_dofs_candidates", "also time the shared-DOF variant of this many of the fastest unrolled or spilling candidates (0: off)",
                            "", shared_twins, &shared_twins, nullptr));
  PetscCall(PetscOptionsInt("-warp_scatter_candidates", "also time the warp-scatter variant of this many of the fastest candidates (0: off)", "",
                            warp_twins, &warp_twins, nullptr));
  PetscCall(PetscOptionsInt("-interleaved_candidates", "also time the interleaved-table variant of this many of the fastest tiled candidates (0: off)",
                            "", interleaved_twins, &interleaved_twins, nullptr));
  PetscCall(PetscOptionsInt("-half_group_candidates", "also time the variant with half the cells per group of this many of the fastest tiled candidates (0: off)",
                            "", half_twins, &half_twins, nullptr));
  PetscCall(PetscOptionsInt("-mma_candidates", "also time this many tensor-core (mma) schedules after the first round (0: off)", "",
                            mma_count, &mma_count, nullptr));
  PetscCall(PetscOptionsInt("-local_search", "rounds of timing the tile neighbours of the fastest tiled candidate, while one finds a faster (0: off)", "",
                            local_search, &local_search, nullptr));
  PetscCall(PetscOptionsInt("-register_bound_candidates",
                            "also time the register-bound variant (one group per SM more) of this many of the fastest register-limited candidates (0: off)",
                            "", bound_twins, &bound_twins, nullptr));
  PetscCall(PetscOptionsInt("-cell_value_bound_candidates",
                            "also time the cells=shared register-bound variant of this many of the fastest register-limited tiled candidates (0: off)",
                            "", cell_twins, &cell_twins, nullptr));
  PetscCall(PetscOptionsInt("-fit_register_words", "also time the model's best candidates whose kernel as timed holds at most this many words (0: off)", "",
                            fit_words, &fit_words, nullptr));
  PetscCall(PetscOptionsInt("-fit_candidates", "how many of those (0: off)", "", fit_count, &fit_count, nullptr));
  PetscCall(PetscOptionsInt("-shared_dofs_above_words", "time unrolled tiled candidates above this register footprint with shared DOFs (0: off)", "",
                            shared_above, &shared_above, nullptr));
  PetscCall(PetscOptionsIntArray("-classes", "N_WI classes whose best candidate is also timed", "", classes, &n_classes, &classes_set));
  PetscCall(PetscOptionsIntArray("-scpwi_work_groups", "SCPWI work-group sizes timed (default 32,64,128,256)", "", scpwi_sizes, &n_scpwi, &scpwi_set));
  PetscCall(PetscOptionsBool("-constant_tables", "also time each SCPWI size with its tables in constant memory", "", constant_tables, &constant_tables, nullptr));
  PetscCall(PetscOptionsBool("-unrolled", "time tiled candidates with their private-array loops unrolled (loops=unrolled)", "", unrolled, &unrolled, nullptr));
  PetscCall(PetscOptionsInt("-quad_tile_classes", "also time the model's best of each of the largest this many T^Q classes (0: off)", "", tq_classes,
                            &tq_classes, nullptr));
  PetscCall(PetscOptionsInt("-per_tiling", "the selections take at most this many candidates that differ only in their quadrature tile (0: no cap)", "",
                            per_tiling, &per_tiling, nullptr));
  PetscCall(PetscOptionsInt("-paper_model_candidates", "also time this many of the paper cost model's best (without t_sync; 0: off)", "",
                            paper_model, &paper_model, nullptr));
  PetscCall(PetscOptionsReal("-model_barrier_ns", "the cost model's cost of one work-group barrier, ns (0: the paper's t_heur alone)", "", barrier_ns,
                             &barrier_ns, nullptr));
  PetscCall(PetscOptionsBool("-lanes", "also time each SCPWI candidate of a vector form with one work-item per component", "", lanes, &lanes, nullptr));
  PetscCall(PetscOptionsInt("-verify_cells",
                            "check the fastest kernel of each case on this many random cells of its mesh against the FP64 CPU reference; "
                            "a case whose kernel differs fails (0: off)",
                            "", verify_cells, &verify_cells, nullptr));
  PetscCall(PetscOptionsString("-json", "write the rows as a JSON array", "", json, json, sizeof(json), nullptr));
  PetscCall(PetscOptionsString("-csv", "write the rows as CSV", "", csv, csv, sizeof(csv), nullptr));
  PetscCall(PetscOptionsString("-schedule", "time these schedules (as MatView prints them; ';' between several) instead of tuning", "", forced_s, forced_s, sizeof(forced_s),
                               nullptr));
  PetscCall(PetscOptionsString("-study", "run the paper's studies instead: ablation, spearman, topk, sensitivity or all (docs/studies.md)", "",
                               study, study, sizeof(study), nullptr));
  PetscCall(PetscOptionsString("-rerank", "print the cost model's terms for the timed schedules in this file (operator|dim|degree|schedule|... lines; - for stdin) and stop; needs no GPU",
                               "", rerank_in, rerank_in, sizeof(rerank_in), nullptr));
  PetscCall(PetscOptionsString("-rerank_device_params", "-rerank: device parameters, a probe cache JSON (default share/femgpu/bench/h200_device_params.json)", "",
                               rerank_params, rerank_params, sizeof(rerank_params), nullptr));
  PetscCall(PetscOptionsRealArray("-rerank_barrier_ns", "-rerank: barrier costs in ns, one t_heur column each (default 0,150)", "", rerank_ns, &n_rerank_ns,
                                  &rerank_ns_set));
  PetscOptionsEnd();
  if (*rerank_in) {
    int rc = 0;
    try {
      const DeviceParams params = params_from_file(*rerank_params ? rerank_params : default_share_dir() + "/bench/h200_device_params.json");
      const std::vector<double> ns(rerank_ns, rerank_ns + (rerank_ns_set ? n_rerank_ns : 2));
      if (std::string(rerank_in) == "-") {
        rerank(std::cin, std::cout, params, ns);
      } else {
        std::ifstream in(rerank_in);
        if (!in) throw std::runtime_error(std::string("femgpu-bench -rerank: cannot read ") + rerank_in);
        rerank(in, std::cout, params, ns);
      }
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s\n", e.what());
      rc = 1;
    }
    PetscCall(PetscFinalize());
    return rc;
  }
  std::vector<std::string> ops;
  std::stringstream ss(ops_s);
  for (std::string t; std::getline(ss, t, ',');) ops.push_back(t);
  if (*study) {
    BenchOptions o{ops, std::vector<int>(dims, dims + nd), static_cast<int>(n2), static_cast<int>(n3), static_cast<int>(min_degree),
                   static_cast<int>(max2), static_cast<int>(max3), static_cast<int>(b), static_cast<int>(threads), monitor == PETSC_TRUE};
    const int rc = run_study(study, o);
    PetscCall(PetscFinalize());
    return rc;
  }
  const std::string forced = forced_s;
  cuda::DeviceInfo info;
  try {
    info = cuda::open_device(0);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "femgpu-bench: %s\n", e.what());
    PetscCall(PetscFinalize());
    return 2;
  }
  // Rank with the probed device (cached); the roofline keeps the paper's H200 constants.
  DeviceParams params = load_or_probe(0, "", false);
  params.local_max_per_group = info.shared_per_group_optin;
  std::printf("cost model: beta_global %.2f TB/s, beta_local %.2f TB/s, SG_sat %g / %g warps per SM (probed)\n", params.beta_global / 1e12,
              params.beta_local / 1e12, params.sg_sat_global, params.sg_sat_local);
  TuneSettings settings;
  settings.candidates = static_cast<size_t>(b);
  settings.min_seconds = min_seconds;
  settings.compile_threads = static_cast<int>(threads);
  settings.min_runs = static_cast<int>(min_runs);
  settings.warmups = static_cast<int>(warmups);
  settings.cutoff = static_cast<double>(cutoff);
  settings.low_register_words = low_words;
  settings.shared_dofs_candidates = static_cast<size_t>(std::max<PetscInt>(0, shared_twins));
  settings.warp_scatter_candidates = static_cast<size_t>(std::max<PetscInt>(0, warp_twins));
  settings.interleaved_candidates = static_cast<size_t>(std::max<PetscInt>(0, interleaved_twins));
  settings.register_bound_candidates = static_cast<size_t>(std::max<PetscInt>(0, bound_twins));
  settings.cell_value_bound_candidates = static_cast<size_t>(std::max<PetscInt>(0, cell_twins));
  settings.half_group_candidates = static_cast<size_t>(std::max<PetscInt>(0, half_twins));
  settings.local_search_rounds = static_cast<size_t>(std::max<PetscInt>(0, local_search));
  settings.mma_candidates = static_cast<size_t>(std::max<PetscInt>(0, mma_count));
  settings.shared_dofs_above_words = std::max<PetscInt>(0, shared_above);
  settings.fit_register_words = std::max<PetscInt>(0, fit_words);
  settings.fit_candidates = static_cast<size_t>(std::max<PetscInt>(0, fit_count));
  if (classes_set) settings.items_per_cell_classes.assign(classes, classes + n_classes);
  settings.scpwi_constant_tables = constant_tables == PETSC_TRUE;
  settings.scpwi_lanes = lanes == PETSC_TRUE;
  settings.tiled_loops = unrolled ? Loops::Unrolled : Loops::Compiler;
  settings.quad_tile_classes = static_cast<int>(std::max<PetscInt>(0, tq_classes));
  settings.per_evaluation_tiling = static_cast<size_t>(std::max<PetscInt>(0, per_tiling));
  settings.paper_model_candidates = static_cast<size_t>(std::max<PetscInt>(0, paper_model));
  settings.model_barrier_seconds = std::max<double>(0, barrier_ns * 1e-9);
  if (scpwi_set) settings.scpwi_work_group_sizes.assign(scpwi_sizes, scpwi_sizes + n_scpwi);
  if (monitor) settings.monitor = [](const std::string &s) { std::printf("    %s\n", s.c_str()); };
  std::map<std::string, double> paper = paper_gdofs(default_share_dir() + "/bench/paper_h200nvl.csv");
  std::vector<Row> rows;
  int at_half = 0, at_paper = 0, failed = 0;
  std::printf("device: %s (%s)\n%-16s %3s %3s %5s %10s %9s %9s %6s %8s %8s %6s  %s\n", info.name.c_str(), info.arch().c_str(), "operator",
              "dim", "deg", "Q", "time_ms", "GFLOP/s", "roofline", "frac", "GDoF/s", "paper", "vs", "schedule");
  for (const std::string &op : ops)
    for (PetscInt di = 0; di < nd; ++di)
      for (int k = static_cast<int>(min_degree); k <= (dims[di] == 2 ? max2 : max3); ++k) {
        const int dim = static_cast<int>(dims[di]);
        try {
          Row r = run_case(op, dim, k, static_cast<int>(dim == 2 ? n2 : n3), settings, info, params, forced, static_cast<int>(verify_cells));
          auto it = paper.find(op + std::to_string(dim) + "_" + std::to_string(k));
          if (it != paper.end()) {
            r.paper_gdofs = it->second;
            r.paper_verdict = r.gdofs >= it->second * 1.005 ? "above" : r.gdofs >= it->second * 0.995 ? "at" : "below";
            at_paper += r.paper_verdict != "below";
          }
          at_half += r.fraction >= 0.5;
          std::printf("%-16s %3d %3d %5d %10.4f %9.0f %9.0f %6.2f %8.2f %8.2f %6s  %s\n", op.c_str(), dim, k, r.Q, r.ms, r.gflops,
                      r.roofline, r.fraction, r.gdofs, r.paper_gdofs, r.paper_verdict.c_str(), r.schedule.c_str());
          if (r.verified_cells > 0) std::printf("    verified on %d cells of the mesh: relative error %.3g\n", r.verified_cells, r.verify_error);
          std::fflush(stdout);
          rows.push_back(r);
        } catch (const std::exception &e) {
          std::printf("%-16s %3d %3d  FAILED: %s\n", op.c_str(), dim, k, e.what());
          ++failed;
        }
      }
  const size_t n = rows.size();
  std::printf("%d of %zu cases at >= 50%% of roofline\n%d of %zu cases at or above the paper's GDoF/s\n%d cases failed\n", at_half, n,
              at_paper, n, failed);
  if (*json) {
    std::ofstream out(json);
    out << "[\n";
    for (size_t i = 0; i < n; ++i) out << "  " << json_row(rows[i]) << (i + 1 < n ? ",\n" : "\n");
    out << "]\n";
  }
  if (*csv) {
    std::ofstream out(csv);
    out << "operator,dim,degree,Q,time_ms,gflops,roofline_gflops,roofline_fraction,gdofs,paper_gdofs,vs_paper,schedule,registers,spill_bytes,shared_bytes,tune_seconds,verified_cells,verify_rel_err,device\n";
    for (const Row &r : rows)
      out << r.op << "," << r.dim << "," << r.degree << "," << r.Q << "," << r.ms << "," << r.gflops << "," << r.roofline << ","
          << r.fraction << "," << r.gdofs << "," << r.paper_gdofs << "," << r.paper_verdict << "," << r.schedule << "," << r.registers << "," << r.spills << "," << r.shared << "," << r.tune_s
          << "," << r.verified_cells << "," << r.verify_error << "," << r.device << "\n";
  }
  PetscCall(PetscFinalize());
  return failed ? 1 : 0;
}
