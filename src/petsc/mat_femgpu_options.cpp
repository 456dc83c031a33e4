// The fem_gpu Mat's options (MatSetFromOptions): one options block, each option read
// with its range checked where it is declared (option_checks.h), so a bad value stops
// with an error naming the option instead of being taken as "unset" or wrapped.
#include <algorithm>
#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/mat_femgpu_impl.h"
#include "petsc/option_checks.h"
#include "petsc/petsc_errors.h"
#include "petsc/schedule_text_option.h"
#include "tune/tune_plan.h"
#include "tune/tuning_cache.h"

namespace femgpu {

// The tuning cache: its file ("none" or empty: off) and -mat_fem_gpu_retune.
template <class Items> static PetscErrorCode read_tune_cache_options(Items PetscOptionsObject, MatFEMGPUContext *ctx)
{
  char path[PETSC_MAX_PATH_LEN];
  PetscBool set;
  std::string shown = ctx->tune_cache;
  PetscFunctionBegin;
  if (shown == "default") {
    try {
      shown = default_tuning_cache_path();
    } catch (const std::exception &) {
      shown = "none";  // neither XDG_CACHE_HOME nor HOME: no default folder
    }
  }
  PetscCall(PetscStrncpy(path, shown.c_str(), sizeof(path)));
  PetscCall(PetscOptionsString("-mat_fem_gpu_tune_cache", "Tuning cache file (JSON; none or empty: no cache). Default: $XDG_CACHE_HOME/femgpu/tuning.json, else ~/.cache/femgpu/tuning.json", "", path, path, sizeof(path), &set));
  if (set) ctx->tune_cache = (path[0] == '\0' || std::string(path) == "none") ? "none" : std::string(path);
  PetscCall(PetscOptionsBool("-mat_fem_gpu_retune", "Tune even when the cache holds a valid entry, and overwrite it", "", ctx->retune, &ctx->retune, nullptr));
  PetscCall(PetscStrncpy(path, ctx->tune_plan.c_str(), sizeof(path)));
  PetscCall(PetscOptionsString("-mat_fem_gpu_tune_plan",
                               "Tuning plan: rounds of moves, e.g. \"first; shared_dofs n=2 + warp_scatter n=2; local_search n=2\" (docs/kernels.md); "
                               "print: print the default plans when tuning",
                               "", path, path, sizeof(path), &set));
  if (set) {
    if (std::string(path) != "print") {
      try {
        (void)parse_tune_plan(path);
      } catch (const std::exception &e) {
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_fem_gpu_tune_plan \"%s\": %s", path, e.what());
      }
    }
    ctx->tune_plan = path;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One option choosing among `choices` (the first is the default), read into *value as
// its text; sets *any when the option is given.
template <class Items>
static PetscErrorCode read_choice(Items PetscOptionsObject, const char *name, const char *help, const std::vector<const char *> &choices,
                                  std::string *value, PetscBool *any)
{
  const auto at = std::find_if(choices.begin(), choices.end(), [&](const char *c) { return *value == c; });
  PetscInt chosen = at == choices.end() ? 0 : static_cast<PetscInt>(at - choices.begin());
  PetscBool set;
  PetscFunctionBegin;
  PetscCall(PetscOptionsEList(name, help, "", choices.data(), static_cast<PetscInt>(choices.size()), choices[static_cast<size_t>(chosen)], &chosen, &set));
  if (set) *value = choices[static_cast<size_t>(chosen)], *any = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -mat_fem_gpu_schedule "<text>" (schedule_text_option.h), read after the separate
// schedule options so that the text, which fixes the whole schedule, wins.
template <class Items> static PetscErrorCode read_schedule_text(Items PetscOptionsObject, ScheduleRequest *r, PetscBool *set)
{
  char text[PETSC_MAX_PATH_LEN] = "";
  PetscFunctionBegin;
  const std::string help = "Forced schedule, as a schedule prints it (a tuning winner pasted back; words left out are completed at setup): " +
                           schedule_text_help();
  PetscCall(PetscOptionsString("-mat_fem_gpu_schedule", help.c_str(), "", text, text, sizeof(text), set));
  if (*set) PetscCall(ScheduleRequestFromText_FEMGPU("-mat_fem_gpu_schedule", text, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Schedule knobs: a forced strategy and tile sizes (unset ones are completed at setup).
template <class Items> static PetscErrorCode read_schedule_options(Items PetscOptionsObject, const OptionSource &src, MatFEMGPUContext *ctx)
{
  ScheduleRequest &r = ctx->schedule;
  PetscBool set, any = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(read_choice(PetscOptionsObject, "-mat_fem_gpu_strategy", "Kernel schedule: auto (tuned on the first MatMult, or read from the tuning cache, with the CUDA and OpenCL backends; SCPWI on the CPU), scpwi (one cell per work-item), tiled (multi-level tiling) or mma (CUDA, FP64: the contractions of N_c cells as tensor-core products; -mat_fem_gpu_schedule \"mma nc=16 warps=4 tq=8\")", {"auto", "scpwi", "tiled", "mma"}, &r.strategy, &any));
  PetscCall(read_choice(PetscOptionsObject, "-mat_fem_gpu_precision", "Floating-point precision of the kernel", {"fp64", "fp32"}, &r.precision, &any));
  PetscCall(read_choice(PetscOptionsObject, "-mat_fem_gpu_loops",
                        "Tiled schedules, forced and tuned: unrolled (#pragma unroll on the loops over a work-item's private arrays, so "
                        "they stay in registers) or compiler (nvcc decides; large ones stay rolled, the arrays in local memory)",
                        {"unrolled", "compiler"}, &r.loops, &any));
  // Forced schedules are one option, -mat_fem_gpu_schedule (read_schedule_text): tile
  // sizes it leaves out stay -1 (whole loops, or the strategy's default).
  struct Knob { const char *name, *help; PetscInt *value; IntRange range; };
  const Knob knobs[] = {{"-mat_fem_gpu_device", "CUDA device ordinal (-1: MPI rank modulo the number of devices)", &r.device, {-1, 1023}}};
  for (const Knob &k : knobs) {
    PetscCall(read_int_option(PetscOptionsObject, src, k.name, k.help, k.range, k.value, &set));
    if (set) any = PETSC_TRUE;
  }
  PetscCall(PetscOptionsBool("-mat_fem_gpu_tune_monitor", "Print each candidate timed while tuning, and tuning-cache hits and misses", "", ctx->tune_monitor, &ctx->tune_monitor, nullptr));
  PetscCall(read_tune_cache_options(PetscOptionsObject, ctx));
  PetscCall(PetscOptionsReal("-mat_fem_gpu_tune_cutoff",
                             "CUDA tuning: a candidate whose second launch takes more than this many times the fastest median so far keeps that one "
                             "run as its time and is not timed further (0: off, every candidate gets 5 warm-ups and 15 runs or 0.2 s)",
                             "", ctx->tune_cutoff, &ctx->tune_cutoff, nullptr));
  PetscCheck(ctx->tune_cutoff == 0 || (ctx->tune_cutoff > 1 && ctx->tune_cutoff <= 1e6), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-mat_fem_gpu_tune_cutoff is %g; it is 0 (off) or a factor above 1 (e.g. 2: cut candidates over twice the fastest)",
             (double)ctx->tune_cutoff);
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_eta_alias_min", "Search space: least aliasing efficiency", 0, 1, &ctx->eta_alias_min, &set));
  any = (PetscBool)(any || set);
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_eta_simd_min", "Search space: least SIMD efficiency", 0, 1, &ctx->eta_simd_min, &set));
  any = (PetscBool)(any || set);
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_model_barrier_ns",
                             "Cost model: what one work-group barrier costs its group, in ns, added to the paper's t_heur as N_sync barriers "
                             "(fitted on the H200; 0: rank by the paper's model alone)",
                             0, 1e6, &ctx->model_barrier_ns, &set));
  any = (PetscBool)(any || set);
  // Tuning's integer knobs (tuner.h's TuneSettings), each part of the tuning cache's key.
  // Counts of candidates are capped where tuning would take hours; register words at the
  // largest register file a work-item can have.
  const IntRange count{0, 1000}, words{0, 1024};
  const Knob tuning[] = {
      {"-mat_fem_gpu_tune_candidates", "Tiled candidates timed when tuning (b; the cost model's best)", &ctx->tune_candidates, count},
      {"-mat_fem_gpu_paper_model_candidates",
       "Tuning also times this many of the best candidates by the paper's cost model alone (without the barrier term "
       "-mat_fem_gpu_model_barrier_ns), which also ranks the low-register and register-fitting candidates (0: off)",
       &ctx->paper_model_candidates, count},
      {"-mat_fem_gpu_tune_per_tiling",
       "Tuning's selections of tiled candidates take at most this many that differ only in their quadrature tile T_q^r x T_q^c "
       "(0: no cap, the paper's top b)",
       &ctx->per_evaluation_tiling, count},
      {"-mat_fem_gpu_wg_max", "Search space: most work-items per group (N_c N_WI); tuning needs room for -mat_fem_gpu_scpwi_work_groups or a whole warp", &ctx->wg_max, {1, 1024}},
      {"-mat_fem_gpu_low_register_words",
       "Tuning also times the model's best candidates whose per-work-item register footprint is at most this many words (0: off)",
       &ctx->low_register_words, words},
      {"-mat_fem_gpu_fit_register_words",
       "Tuning also times the model's best -mat_fem_gpu_fit_candidates candidates whose kernel as timed (shared DOFs where the "
       "footprint is too large) holds at most this many words per work-item (0: off)",
       &ctx->fit_register_words, words},
      {"-mat_fem_gpu_fit_candidates", "How many register-fitting candidates tuning also times (0: off)", &ctx->fit_candidates, count},
      {"-mat_fem_gpu_shared_dofs_above_words",
       "Tuning times unrolled tiled candidates whose register footprint with the DOF tile in registers is above this many words with "
       "shared DOFs instead (255 registers hold 127 FP64 words; 0: off)",
       &ctx->shared_dofs_above_words, words}};
  for (const Knob &k : tuning) {
    PetscCall(read_int_option(PetscOptionsObject, src, k.name, k.help, k.range, k.value, &set));
    if (set) any = PETSC_TRUE;
  }
  std::vector<PetscInt> sizes(ctx->scpwi_work_groups.begin(), ctx->scpwi_work_groups.end());
  PetscCall(read_int_list_option(PetscOptionsObject, "-mat_fem_gpu_scpwi_work_groups",
                                 "Tuning times SCPWI at each of these work-group sizes (those up to -mat_fem_gpu_wg_max; work-items per group)", {1, 1024},
                                 &sizes, &set));
  if (set) {
    ctx->scpwi_work_groups.assign(sizes.begin(), sizes.end());
    any = PETSC_TRUE;
  }
  PetscCall(PetscOptionsBool("-mat_fem_gpu_scpwi_constant_tables",
                             "Tuning also times each SCPWI size with its element tables in constant memory, separate and merged, where they fit", "",
                             ctx->scpwi_constant_tables, &ctx->scpwi_constant_tables, &set));
  any = (PetscBool)(any || set);
  PetscCall(read_int_option(PetscOptionsObject, src, "-mat_fem_gpu_quad_tile_classes",
                            "Tuning also times the cost model's best candidate of each of the largest this many quadrature tiles T^Q (Q, Q/2, ...; 0: off)",
                            {0, 64}, &ctx->quad_tile_classes, &set));
  any = (PetscBool)(any || set);
  PetscCall(PetscOptionsBool("-mat_fem_gpu_scpwi_lanes",
                             "Tuning also times each SCPWI candidate of a vector form with one work-item per component (lanes=C)", "",
                             ctx->scpwi_lanes, &ctx->scpwi_lanes, &set));
  any = (PetscBool)(any || set);
  PetscCall(read_schedule_text(PetscOptionsObject, &r, &set));
  any = (PetscBool)(any || set);
  if (any) ctx->set_up = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The options block has its own title: PETSc prints -help for a title once, and the
// "Matrix (Mat)" block has usually been printed by another Mat (a partitioner's) already.
static PetscErrorCode read_options(Mat A)
{
  MatFEMGPUContext *ctx;
  const char *prefix;
  char path[PETSC_MAX_PATH_LEN];
  PetscBool set;
  const char *backends[] = {"auto", "cpu", "opencl", "cuda"};
  PetscInt backend = 0;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  ctx->options_read = true;
  ctx->options_prefix = prefix ? prefix : "";
  OptionSource src;
  src.prefix = prefix;
  PetscCall(PetscObjectGetOptions((PetscObject)A, &src.options));
  for (PetscInt i = 0; i < 4; ++i)
    if (ctx->backend_name == backends[i]) backend = i;
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), prefix, "fem_gpu: matrix-free finite-element operator from a UFL form", "Mat");
  PetscCall(PetscOptionsString("-mat_fem_gpu_form_file", "UFL form file defining a (or a residual F)", "MatFEMGPUSetFormFile", "", path, sizeof(path), &set));
  if (set) PetscCall(MatFEMGPUSetFormFile(A, path));
  PetscCall(PetscOptionsEList("-mat_fem_gpu_backend", "Where the action runs (auto: cuda if a device is present, else cpu)", "", backends, 4, backends[backend], &backend, &set));
  if (set) {
    ctx->backend_name = backends[backend];
    ctx->set_up = false;
  }
  PetscCall(read_int_option(PetscOptionsObject, src, "-mat_fem_gpu_quadrature_degree", "Quadrature degree (-1: estimated from the form as UFL does)",
                            {-1, 100}, &ctx->quadrature_degree, &set));
  if (set) ctx->set_up = false;
  PetscBool symmetric = ctx->symmetric_declared == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-mat_fem_gpu_symmetric", "Declare the form symmetric (MatMultTranspose = MatMult, MAT_SYMMETRIC) or not; default: detected from a cell matrix at setup", "MatIsSymmetric", symmetric, &symmetric, &set));
  if (set) {
    ctx->symmetric_declared = symmetric ? 1 : 0;
    ctx->set_up = false;
  }
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_check_jacobian",
                             "In an unchanged SNES program: on first use, compare this operator with the Jacobian the program assembles from its "
                             "PetscDS (3 random vectors) and stop with an error when their relative difference exceeds this tolerance (0: off)",
                             0, 1, &ctx->check_jacobian_tol, &set));
  PetscCall(PetscOptionsBool("-mat_fem_gpu_view", "View the operator (lowered form, quadrature, backend) once it is set up", "MatView", ctx->view_ir, &ctx->view_ir, nullptr));
  PetscCall(read_schedule_options(PetscOptionsObject, src, ctx));
  PetscCall(PetscOptionsBool("-mat_fem_gpu_view_source", "Print the generated kernel source once it is set up", "MatView", ctx->view_source, &ctx->view_source, nullptr));
  PetscCall(PetscOptionsName("-mat_fem_gpu_constant_<name>", "Value of the form's Constant <name> (listed once the form is set up)", "MatFEMGPUSetConstant", nullptr));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSetFromOptions_FEMGPU(Mat A, OptionItems)
{
  PetscFunctionBegin;
  PetscCall(read_options(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
