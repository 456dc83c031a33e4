// femgpu-bench's options (femgpu_bench_options.h).
#include "tools/femgpu_bench_options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "form/quoted_text.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/text_option.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"

namespace femgpu {

namespace {

// The option readers take PETSc's options block object by its macro name
// (PetscOptionsObject), as the PetscOptions* macros expect, whatever its type in this
// PETSc version.

std::vector<std::string> split_commas(const std::string &text)
{
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string t; std::getline(ss, t, ',');) out.push_back(t);
  return out;
}

template <class Items> PetscErrorCode read_case_options(Items PetscOptionsObject, BenchOptions *o)
{
  std::string ops = "mass,laplace,helmholtz,elasticity,hyperelasticity";
  PetscBool set;
  PetscInt dims[2] = {2, 3}, nd = 2, n2 = o->n2, n3 = o->n3, lo = o->min_degree, max2 = o->max_degree_2d, max3 = o->max_degree_3d;
  PetscInt threads = o->compile_threads;
  PetscBool dims_set = PETSC_FALSE, monitor = PETSC_FALSE, compress = o->compress_points ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(read_text_option(PetscOptionsObject, {}, "-ops", "operators", "", &ops, &set));
  PetscCall(PetscOptionsIntArray("-dims", "dimensions", "", dims, &nd, &dims_set));
  if (!dims_set) nd = 2;  // PETSc sets the count to 0 when the option is absent
  PetscCall(PetscOptionsInt("-n2", "squares per side in 2D (paper: 1280)", "", n2, &n2, nullptr));
  PetscCall(PetscOptionsInt("-n3", "cubes per side in 3D (paper: 56)", "", n3, &n3, nullptr));
  PetscCall(PetscOptionsInt("-min_degree", "lowest degree", "", lo, &lo, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_2d", "highest degree in 2D", "", max2, &max2, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_3d", "highest degree in 3D", "", max3, &max3, nullptr));
  PetscCall(PetscOptionsInt("-compile_threads", "NVRTC compilations in parallel", "", threads, &threads, nullptr));
  PetscCall(PetscOptionsBool("-monitor", "print every timed candidate", "", monitor, &monitor, nullptr));
  PetscCall(PetscOptionsBool("-compress_points", "as -mat_fem_gpu_compress_points: fewer points with the same action where the form allows (0: the rule's)", "",
                             compress, &compress, nullptr));
  for (PetscInt i = 0; i < nd; ++i)
    PetscCheck(dims[i] == 2 || dims[i] == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-dims has %" PetscInt_FMT "; it takes 2 and 3", dims[i]);
  PetscCheck(n2 > 0 && n3 > 0 && lo >= 1 && threads >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-n2, -n3, -min_degree and -compile_threads are positive");
  o->ops = split_commas(ops);
  o->dims.assign(dims, dims + nd);
  o->n2 = static_cast<int>(n2), o->n3 = static_cast<int>(n3), o->min_degree = static_cast<int>(lo);
  o->max_degree_2d = static_cast<int>(max2), o->max_degree_3d = static_cast<int>(max3);
  o->compile_threads = static_cast<int>(threads), o->monitor = monitor == PETSC_TRUE;
  o->compress_points = compress == PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tuning plan and the timing protocol (tuner.h's TuneSettings).
template <class Items> PetscErrorCode read_tuning_options(Items PetscOptionsObject, TuneSettings *s, int compile_threads)
{
  std::string plan;
  PetscBool set;
  PetscInt min_runs = s->min_runs, warmups = s->warmups;
  PetscReal min_seconds = s->min_seconds, budget = 10;
  PetscFunctionBegin;
  PetscCall(read_text_option(PetscOptionsObject, {}, "-tune_plan", "the tuning plan or its parameters, as -mat_fem_gpu_tune_plan takes them (\"print\" lists the default)",
                             "", &plan, &set));
  PetscCall(PetscOptionsReal("-tune_budget", "seconds each case's tuning may take, as -mat_fem_gpu_tune_budget (0: the whole plan)", "", budget, &budget,
                             nullptr));
  PetscCall(PetscOptionsReal("-min_seconds", "time each candidate at least this long (and >= -min_runs runs)", "", min_seconds, &min_seconds, nullptr));
  PetscCall(PetscOptionsInt("-min_runs", "time each candidate at least this many runs", "", min_runs, &min_runs, nullptr));
  PetscCall(PetscOptionsInt("-warmups", "untimed launches before timing each candidate", "", warmups, &warmups, nullptr));
  PetscCheck(min_seconds >= 0 && min_runs >= 1 && warmups >= 0 && budget >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-min_seconds, -warmups and -tune_budget are >= 0, -min_runs >= 1");
  TunePlan parsed;  // read once; the settings carry it
  try {  // the reason before the text: PETSc cuts long messages
    if (!plan.empty()) {
      parsed = parse_tune_plan(plan);
      *s = with_plan(*s, parsed);
    }
  } catch (const TuneParamError &e) {
    SETERRQ(PETSC_COMM_SELF, e.out_of_range ? PETSC_ERR_ARG_OUTOFRANGE : PETSC_ERR_ARG_WRONG, "-tune_plan: %s; given %s", e.what(), quoted_excerpt(plan).c_str());
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-tune_plan: %s; given %s", e.what(), quoted_excerpt(plan).c_str());
  }
  s->min_seconds = min_seconds, s->min_runs = static_cast<int>(min_runs), s->warmups = static_cast<int>(warmups);
  s->compile_threads = compile_threads, s->budget_seconds = budget;
  if (parsed.print) std::printf("tuning plan: %s\nparameters: %s\n", to_string(settings_plan(*s, default_cuda_plan())).c_str(), tune_params_text(*s).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What is written, and the modes that replace the normal run (-schedule, -study, -rerank).
template <class Items> PetscErrorCode read_output_options(Items PetscOptionsObject, BenchArgs *a)
{
  PetscReal ns[16];
  PetscInt n_ns = 16, verify = a->verify_cells;
  PetscBool ns_set = PETSC_FALSE, set;
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-verify_cells",
                            "check the fastest kernel of each case on this many random cells of its mesh against the FP64 CPU reference; "
                            "a case whose kernel differs fails (0: off)",
                            "", verify, &verify, nullptr));
  PetscReal spmv = a->spmv_max_cell_entries;
  PetscCall(PetscOptionsReal("-spmv_max_cell_entries",
                             "cuSPARSE SpMV baseline of each case: the assembled operator on the case's mesh, or the largest lattice mesh whose cell "
                             "matrices hold at most this many entries (0: no baseline)",
                             "", spmv, &spmv, nullptr));
  PetscCheck(spmv >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-spmv_max_cell_entries %g: must be >= 0", (double)spmv);
  a->spmv_max_cell_entries = spmv;
  const char *env_commit = std::getenv("FEMGPU_COMMIT");
  a->commit = env_commit ? env_commit : "unknown";
  PetscCall(read_text_option(PetscOptionsObject, {}, "-commit", "the commit the rows come from (default: $FEMGPU_COMMIT)", "", &a->commit, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-json", "write the rows as a JSON array", "", &a->json, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-csv", "write the rows as CSV", "", &a->csv, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-schedule", "time these schedules (as MatView prints them; ';' between several) instead of tuning", "",
                             &a->forced, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-study", "run the paper's studies instead: ablation, spearman, topk, sensitivity or all (docs/studies.md)",
                             "", &a->study, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-rerank",
                             "print the cost model's terms for the timed schedules in this file (operator|dim|degree|schedule|... lines; - for stdin) and stop; needs no GPU",
                             "", &a->rerank_in, &set));
  PetscCall(read_text_option(PetscOptionsObject, {}, "-rerank_device_params",
                             "-rerank: device parameters, a probe cache JSON (default share/femgpu/bench/h200_device_params.json)", "", &a->rerank_params, &set));
  PetscCall(PetscOptionsRealArray("-rerank_barrier_ns", "-rerank: barrier costs in ns, one t_heur column each (default 0,150)", "", ns, &n_ns, &ns_set));
  a->verify_cells = static_cast<int>(std::max<PetscInt>(0, verify));
  if (ns_set) a->rerank_ns.assign(ns, ns + n_ns);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode read_bench_options(BenchArgs *a)
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

}  // namespace femgpu
