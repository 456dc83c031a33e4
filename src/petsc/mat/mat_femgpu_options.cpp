// The fem_gpu Mat's options (MatSetFromOptions): one options block, each option read
// with its range checked where it is declared (option_checks.h), so a bad value stops
// with an error naming the option instead of being taken as "unset" or wrapped; and the
// one copy of them a Mat made from another takes (MatFEMGPUCopiedOptions).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "femgpu.h"
#include "form/quoted_text.h"
#include "petsc/base/option_checks.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_options.h"
#include "petsc/mat/schedule_text_option.h"
#include "schedule/schedule_words.h"
#include "tune/tune_moves.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"
#include "cache/tuning_cache.h"

namespace femgpu {

// -mat_fem_gpu_tune_plan: the rounds and the tuning parameters (tune_params.h), parsed
// here, once: a bad plan stops with an error naming the word or parameter and its range,
// and tuning takes the parsed plan (MatFEMGPUOptions::parsed_tune_plan).
template <class Items> static PetscErrorCode read_tune_plan(Items PetscOptionsObject, const OptionSource &src, MatFEMGPUContext *ctx)
{
  std::string text = ctx->options.tune_plan;
  PetscBool set;
  PetscFunctionBegin;
  const std::string help = tune_plan_help();
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_tune_plan", help.c_str(), "", &text, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  // The reason before the text: PETSc cuts long messages.
  std::shared_ptr<const TunePlan> plan;
  try {
    plan = std::make_shared<const TunePlan>(parse_tune_plan(text));
  } catch (const TuneParamError &e) {
    SETERRQ(PETSC_COMM_SELF, e.out_of_range ? PETSC_ERR_ARG_OUTOFRANGE : PETSC_ERR_ARG_WRONG, "-mat_fem_gpu_tune_plan: %s; given %s", e.what(),
            quoted_excerpt(text).c_str());
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_fem_gpu_tune_plan: %s; given %s", e.what(), quoted_excerpt(text).c_str());
  }
  if (ctx->options.tune_plan != text) ctx->set_up = false;  // another plan: tune again
  ctx->options.tune_plan = text;
  ctx->options.parsed_tune_plan = std::move(plan);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tuning cache: its file ("none" or empty: off), -mat_fem_gpu_retune and the plan.
template <class Items> static PetscErrorCode read_tune_cache_options(Items PetscOptionsObject, const OptionSource &src, MatFEMGPUContext *ctx)
{
  PetscBool set;
  std::string shown = ctx->options.tune_cache;
  PetscFunctionBegin;
  if (shown == "default") {
    try {
      shown = default_tuning_cache_path();
    } catch (const std::exception &) {
      shown = "none";  // neither XDG_CACHE_HOME nor HOME: no default folder
    }
  }
  std::string path = shown;
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_tune_cache", "Tuning cache file (JSON; none or empty: no cache). Default: $XDG_CACHE_HOME/femgpu/tuning.json, else ~/.cache/femgpu/tuning.json", "", &path, &set));
  if (set) ctx->options.tune_cache = (path.empty() || path == "none") ? "none" : path;
  std::string folder = ctx->options.kernel_cache;
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_kernel_cache",
                             "Folder of compiled CUDA kernels kept between runs (none or empty: compile every time). Default: $XDG_CACHE_HOME/femgpu/kernels, else ~/.cache/femgpu/kernels",
                             "", &folder, &set));
  if (set) ctx->options.kernel_cache = (folder.empty() || folder == "none") ? "none" : folder;
  PetscCall(PetscOptionsBool("-mat_fem_gpu_retune", "Tune even when the cache holds a valid entry, and overwrite it", "", ctx->options.retune, &ctx->options.retune, nullptr));
  PetscCall(read_tune_plan(PetscOptionsObject, src, ctx));
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
template <class Items> static PetscErrorCode read_schedule_text(Items PetscOptionsObject, const OptionSource &src, ScheduleRequest *r, PetscBool *set)
{
  std::string text;
  PetscFunctionBegin;
  const std::string help = "Forced schedule, as a schedule prints it (a tuning winner pasted back; words left out are completed at setup): " +
                           schedule_text_help() + " (left out: what a printed schedule leaves out; tiles: whole loops)";
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_schedule", help.c_str(), "", &text, set));
  if (*set) PetscCall(ScheduleRequestFromText_FEMGPU("-mat_fem_gpu_schedule", text, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Schedule knobs: a forced strategy and tile sizes (unset ones are completed at setup).
template <class Items> static PetscErrorCode read_schedule_options(Items PetscOptionsObject, const OptionSource &src, MatFEMGPUContext *ctx)
{
  ScheduleRequest &r = ctx->options.schedule;
  PetscBool set, any = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(read_choice(PetscOptionsObject, "-mat_fem_gpu_strategy", "Kernel schedule: auto (tuned on the first MatMult, or read from the tuning cache, with the CUDA and OpenCL backends; SCPWI on the CPU), scpwi (one cell per work-item), tiled (multi-level tiling), mma (CUDA, FP64: the contractions of N_c cells as tensor-core products; -mat_fem_gpu_schedule \"mma nc=16 warps=4 tq=8\") or assembled (CUDA, FP64, forms without coefficients: the cell matrices summed once on the device into a sparse matrix, each MatMult an SpMV)", {"auto", "scpwi", "tiled", "mma", "assembled"}, &r.strategy, &any));
  PetscCall(read_choice(PetscOptionsObject, "-mat_fem_gpu_precision", "Floating-point precision of the kernel", {"fp64", "fp32"}, &r.precision, &any));
  // Forced schedules are one option, -mat_fem_gpu_schedule (read_schedule_text); the
  // research knobs of tuning are parameters of the plan (-mat_fem_gpu_tune_plan).
  PetscCall(read_int_option(PetscOptionsObject, src, "-mat_fem_gpu_device", "CUDA device ordinal (-1: MPI rank modulo the number of devices)", {-1, 1023},
                            &r.device, &set));
  any = (PetscBool)(any || set);
  PetscCall(PetscOptionsBool("-mat_fem_gpu_tune_monitor", "Print each candidate timed while tuning, and tuning-cache hits and misses", "", ctx->options.tune_monitor, &ctx->options.tune_monitor, nullptr));
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_tune_budget",
                             "Seconds a first tuning may take: candidates are timed in the order of their expected gain until it is spent, and the "
                             "fastest so far is kept and cached (0: no budget, the whole plan)",
                             0, 1e6, &ctx->options.tune_budget, &set));
  if (set) ctx->set_up = false;
  PetscCall(read_tune_cache_options(PetscOptionsObject, src, ctx));
  PetscCall(read_schedule_text(PetscOptionsObject, src, &r, &set));
  any = (PetscBool)(any || set);
  if (any) ctx->set_up = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -mat_fem_gpu_boundary_label: the label ds(i) reads (boundary_facets.h).
static PetscErrorCode read_boundary_label(OptionItems PetscOptionsObject, const OptionSource &src, MatFEMGPUContext *ctx)
{
  std::string label = ctx->options.boundary_label;
  PetscBool set;
  PetscFunctionBegin;
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_boundary_label",
                             "DM label whose value i ds(i) integrates over (default: 'Face Sets', else 'marker')", "", &label, &set));
  if (set) {
    ctx->options.boundary_label = label;
    ctx->set_up = false;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The options block has its own title: PETSc prints -help for a title once, and the
// "Matrix (Mat)" block has usually been printed by another Mat (a partitioner's) already.
static PetscErrorCode read_options(Mat A)
{
  MatFEMGPUContext *ctx;
  const char *prefix;
  std::string path;
  PetscBool set;
  const char *backends[] = {"auto", "cpu", "opencl", "cuda"};
  PetscInt backend = 0;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  ctx->options.options_read = true;
  ctx->options.options_prefix = prefix ? prefix : "";
  OptionSource src;
  src.prefix = prefix;
  PetscCall(PetscObjectGetOptions((PetscObject)A, &src.options));
  for (PetscInt i = 0; i < 4; ++i)
    if (ctx->options.backend_name == backends[i]) backend = i;
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), prefix, "fem_gpu: matrix-free finite-element operator from a UFL form", "Mat");
  PetscCall(read_text_option(PetscOptionsObject, src, "-mat_fem_gpu_form_file", "UFL form file defining a (or a residual F)", "MatFEMGPUSetFormFile",
                             &path, &set));
  if (set) PetscCall(MatFEMGPUSetFormFile(A, path.c_str()));
  PetscCall(PetscOptionsEList("-mat_fem_gpu_backend", "Where the action runs (auto: cuda if a device is present, else cpu)", "", backends, 4, backends[backend], &backend, &set));
  if (set) {
    ctx->options.backend_name = backends[backend];
    ctx->set_up = false;
  }
  PetscCall(read_int_option(PetscOptionsObject, src, "-mat_fem_gpu_quadrature_degree", "Quadrature degree (-1: estimated from the form as UFL does)",
                            {-1, 100}, &ctx->options.quadrature_degree, &set));
  if (set) ctx->set_up = false;
  PetscCall(PetscOptionsBool("-mat_fem_gpu_compress_points",
                             "Where the form is one linear map at every quadrature point (mass, Laplace, Helmholtz, linear elasticity on affine cells), "
                             "run the kernels at fewer points that give the same action (the test derivatives' polynomial space)",
                             "", ctx->options.compress_points, &ctx->options.compress_points, &set));
  if (set) ctx->set_up = false;
  PetscBool symmetric = ctx->options.symmetric_declared == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-mat_fem_gpu_symmetric", "Declare the form symmetric (MatMultTranspose = MatMult, MAT_SYMMETRIC) or not; default: detected from a cell matrix at setup", "MatIsSymmetric", symmetric, &symmetric, &set));
  if (set) {
    ctx->options.symmetric_declared = symmetric ? 1 : 0;
    ctx->set_up = false;
  }
  PetscCall(read_real_option(PetscOptionsObject, "-mat_fem_gpu_check_jacobian",
                             "In an unchanged SNES program: on first use, compare this operator with the Jacobian the program assembles from its "
                             "PetscDS (3 random vectors) and stop with an error when their relative difference exceeds this tolerance (0: off)",
                             0, 1, &ctx->options.check_jacobian_tol, &set));
  PetscCall(PetscOptionsBool("-mat_fem_gpu_check_finite",
                             "At the first apply and the first MatGetDiagonal(), stop with an error if the output holds inf or nan while the input "
                             "and coefficients are finite (e.g. a constant c = 0 in 1/c)",
                             "", ctx->options.check_finite, &ctx->options.check_finite, nullptr));
  PetscCall(read_boundary_label(PetscOptionsObject, src, ctx));
  PetscCall(PetscOptionsBool("-mat_fem_gpu_view", "View the operator (lowered form, quadrature, backend) once it is set up", "MatView", ctx->options.view_ir, &ctx->options.view_ir, nullptr));
  PetscCall(read_schedule_options(PetscOptionsObject, src, ctx));
  PetscCall(PetscOptionsBool("-mat_fem_gpu_view_source", "Print the generated kernel source once it is set up", "MatView", ctx->options.view_source, &ctx->options.view_source, nullptr));
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

MatFEMGPUOptions MatFEMGPUCopiedOptions(const MatFEMGPUOptions &from, const MatFEMGPUOptions &own, const OptionsCopyChanges &changes)
{
  MatFEMGPUOptions o = from;
  // The new Mat's own reading of the options database, and what it read for itself.
  o.options_read = own.options_read;
  o.options_prefix = own.options_prefix;
  o.tune_monitor = own.tune_monitor;
  o.tune_budget = own.tune_budget;
  o.tune_plan = own.tune_plan;
  o.parsed_tune_plan = own.parsed_tune_plan;
  o.tune_cache = own.tune_cache;
  o.retune = own.retune;
  o.check_jacobian_tol = own.check_jacobian_tol;
  if (changes.backend_name) o.backend_name = *changes.backend_name;
  if (changes.schedule) o.schedule = *changes.schedule;
  if (changes.own_views_and_checks) {
    o.view_ir = own.view_ir;
    o.view_source = own.view_source;
    o.check_finite = own.check_finite;
  }
  return o;
}

}  // namespace femgpu
