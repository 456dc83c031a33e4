// The state behind a `fem_gpu` Mat, in four parts: what the user configured
// (MatFEMGPUOptions), the operator and what setup derives from it (OperatorDescription:
// the lowered form, tables, closure maps), where it runs (DeviceState: the backend and its
// measured applies) and what tuning chose (TuningResult). Private to src/petsc/.
#pragma once

#include <petscdm.h>
#include <petscmat.h>
#include <petscsnes.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "ir/lower.h"
#include "petsc/mat_femgpu_shell_edits.h"
#include "petsc/petsc_compat.h"
#include "petsc/plex_maps.h"
#include "runtime/action_backend.h"
#include "schedule/schedule_words.h"
#include "tune/tuner.h"

namespace femgpu {

struct EssentialPlan;  // essential_values.h
struct FieldBlocks;     // mat_femgpu_fields.h: a Mat over a DM with several fields

struct CoefficientBinding {
  Vec vec = nullptr;         // as given by the user (referenced)
  Vec local = nullptr;       // ghosted copy read by the action
  PetscObjectState state = -1;  // of `vec` when `local` was filled
  // A coefficient in its own element (coefficient_binding.cpp) reads `local` through
  // its own closure map: the map of its field in `dm` (the Vec's DM or the auxiliary
  // vector's; not referenced, `vec` holds it). Null dm, empty map: the Mat's DM and map.
  DM dm = nullptr;
  std::vector<int> map;
  PetscInt local_size = -1;  // of dm's local section
  bool auxiliary = false;    // bound to the DM's auxiliary vector at setup (looked up again at the next)
};

// A schedule forced from the options database: -mat_fem_gpu_strategy, or the words of
// -mat_fem_gpu_schedule (completed at setup, schedule_words.h's completed_schedule).
struct ScheduleRequest {
  std::string strategy = "auto";  // auto | scpwi | tiled | mma
  ScheduleText forced;            // the text's words; used where its strategy is `strategy`
  std::string precision = "fp64";
  PetscInt device = -1;  // CUDA ordinal; -1: rank modulo the number of devices
};

// What the user asked for, by API calls (mat_femgpu_api.cpp) and the options database
// (mat_femgpu_options.cpp); setup, tuning and MatView read it, nothing derived is kept here.
// MatDuplicate and the p-multigrid levels copy parts of it.
struct MatFEMGPUOptions {
  std::string backend_name = "auto";
  PetscInt quadrature_degree = -1;  // -1: estimated from the form
  PetscBool compress_points = PETSC_TRUE;  // fem/compressed_points.h, where exact
  PetscBool view_ir = PETSC_FALSE;
  PetscBool view_source = PETSC_FALSE;
  ScheduleRequest schedule;
  // Tuning on the first MatMult (CUDA or OpenCL backend, -mat_fem_gpu_strategy auto).
  PetscBool tune_monitor = PETSC_FALSE;
  // -mat_fem_gpu_tune_budget: seconds a first tuning may take (TuneSettings::budget_seconds; 0: none).
  PetscReal tune_budget = 10;
  // -mat_fem_gpu_tune_plan: a plan text (tune_plan.h: rounds and the tuning parameters of
  // tune_params.h), "print" or empty (the backend's default plan and parameters).
  std::string tune_plan;
  std::string tune_cache = "default";  // "default" (XDG path), "none" (off) or a file
  PetscBool retune = PETSC_FALSE;      // ignore the cache, tune, overwrite the entry
  PetscInt symmetric_declared = -1;    // -mat_fem_gpu_symmetric: -1 detect, 0 no, 1 yes
  // MatSetFromOptions ran, with this prefix: the form's constants are read at setup under it.
  bool options_read = false;
  PetscReal check_jacobian_tol = 0;  // -mat_fem_gpu_check_jacobian (snes_jacobian.cpp); 0: off
  PetscBool check_finite = PETSC_FALSE;  // -mat_fem_gpu_check_finite (mat_femgpu_finite.cpp)
  std::string boundary_label;        // -mat_fem_gpu_boundary_label; empty: 'Face Sets', else 'marker' 
  std::string options_prefix;
};

// The exterior facet integrals of one ds domain on one local facet f (lower.h): a cell
// operator on the cells whose facet f is on that boundary, with their closure maps. It
// runs the default (untuned) SCPWI schedule on the Mat's backend kind: it is surface-sized.
struct FacetPart {
  IntegralDomain domain;
  int facet = 0;
  std::unique_ptr<ActionIR> ir;
  std::unique_ptr<Tabulation> tab;
  std::vector<PetscInt> cells;  // 0-based cells of this rank
  PlexMaps maps;                // their rows of the Mat's maps
  std::unique_ptr<ActionBackend> backend;  // null where this rank has no such cell
  std::vector<std::vector<int>> coefficient_maps;  // scratch: own-element coefficient rows
};

// The operator: the form and the values it is bound to (set through the API and by SNES),
// then what setup (mat_femgpu_setup.cpp) derives from them on the DM. Independent of
// where the action runs; the PETSc handles here (DM, coefficient Vecs) are the operator's.
struct OperatorDescription {
  std::string form_text, form_source;
  std::map<std::string, PetscReal> constants_set;  // by MatFEMGPUSetConstant
  std::map<std::string, CoefficientBinding> coefficients;
  // SNES's iterate (a local Vec, boundary values inserted) when SNES computes the Jacobian
  // (snes_jacobian.cpp); bound at setup to the form's one coefficient if none was set.
  Vec linearization = nullptr;
  // TS's U_t (a local Vec, boundary values inserted) for a residual F(t, w, w_t) and its
  // IJacobian (ts_residual.cpp): bound at setup to the form's time derivative w_t of w.
  Vec time_derivative = nullptr;
  // A residual operator (the rank-1 form F of the file, snes_residual.cpp): its apply adds
  // F(w; v) with w bound to the linearization point; no trial function, no symmetry.
  bool residual = false;
  // A residual operator's plan of the DM's essential boundary values (snes_residual.cpp).
  std::shared_ptr<EssentialPlan> essential_values;
  // A block of a mixed form (mat_femgpu_fields.cpp): lowered as it is, instead of
  // parsing form_text (which then only names it in messages).
  std::shared_ptr<const Form> given_form;

  // Derived at setup (first use after the DM and form are known).
  DM dm = nullptr;
  FormSignature signature;
  std::unique_ptr<ActionIR> ir;
  std::unique_ptr<Tabulation> tab;
  std::shared_ptr<const PlexMaps> shared_maps;  // plex_shared_maps: shared with the DM's other fem_gpu Mats
  const PlexMaps &maps() const  // empty before setup
  {
    static const PlexMaps none;
    return shared_maps ? *shared_maps : none;
  }
  // The DM's maps of every cell, where the operator's own (maps()) are a subset of them
  // (on_facets); closure-wide work (coefficient maps, p-multigrid transfers, essential
  // values) reads these.
  std::shared_ptr<const PlexMaps> dm_maps;
  const PlexMaps &mesh_maps() const { return dm_maps ? *dm_maps : maps(); }
  // A form without dx integrals: `ir` is its first ds domain on facet 0, run on these
  // cells (maps() holds their rows: cut from the DM's shared maps, this Mat's own);
  // empty for the dx operator on every cell.
  bool on_facets = false;
  std::vector<PetscInt> cells;
  std::vector<std::vector<int>> coefficient_maps;  // scratch: own-element coefficient rows of `cells`
  std::vector<FacetPart> facets;   // the other ds domains and facets (mat_femgpu_facets.cpp)
  std::shared_ptr<const Form> form;  // as lowered, for the facet parts
  std::vector<double> constants;  // one per ir->constants
  PetscLogDouble flops_per_cell = 0;
  bool symmetric = false;  // declared, or detected on a cell matrix at setup (mat_femgpu_solver.cpp)
  double asymmetry = -1;   // max |A - A^T| / max |A| of the checked cell matrix; -1: declared
};

// Where the action runs: the backend MatFEMGPUMakeBackend built (mat_femgpu_backend.cpp),
// its device, and what MatFEMGPURecordApply measures of its applies.
struct DeviceState {
  std::unique_ptr<ActionBackend> backend;
  std::string backend_label;  // backend->name(), kept for MatFEMGPUGetBackend
  int cuda_ordinal = -1;      // the CUDA backend's device
  // The roofline's DeviceParams: probed when tuning (CUDA, OpenCL) or for MatView; see
  // MatFEMGPUDescribePerformance.
  bool device_params_known = false;
  DeviceParams device_params;
  std::string device_params_source;
  // Measured in MatFEMGPUApply: wall time of the backend's apply (MatView's GFLOP/s).
  PetscLogDouble apply_seconds = 0, first_apply_seconds = 0;  // the first holds one-time costs (builds, uploads)
  PetscInt apply_count = 0;
};

// What tuning decided (mat_femgpu_tune.cpp), tuned now or read from the cache: MatView's
// lines about it. The schedule itself is the backend's.
struct TuningResult {
  std::string summary;
  double median_seconds = 0;  // the chosen schedule's median (tuned or cached); 0: none
};

// The Mat's data (MatCreate_FEMGPU owns it): its four parts and the setup bookkeeping.
struct MatFEMGPUContext {
  MatFEMGPUOptions options;
  OperatorDescription op;
  DeviceState device;
  TuningResult tuning;
  bool set_up = false;
  PetscLogDouble setup_seconds = 0;
  bool jacobian_checked = false;  // -mat_fem_gpu_check_jacobian ran (snes_jacobian.cpp)
  // MatZeroEntries made it the zero matrix until a linearization point binds its operator
  // again (ts_ijacobian.cpp: TS zeroes the Jacobian before each IJacobian).
  bool zeroed = false;
  bool time_shift_noted = false;  // the PetscInfo line of a form without TS's shift was printed
  bool apply_finite_checked = false, diagonal_finite_checked = false;  // -mat_fem_gpu_check_finite ran
  // MatScale, MatShift ... since the last final assembly, for assembled copies (mat_femgpu_shell_edits.h).
  ShellEdits shell_edits;
  // Over a DM with several fields: the blocks of the mixed form (mat_femgpu_fields.h),
  // made at the first use instead of the single-field setup; null otherwise.
  std::shared_ptr<FieldBlocks> fields;
};

// A tuner's answer: every timed candidate, and the fastest one's backend made from the
// kernel that was timed (no second compile or upload of the program); null where none
// ran or the timed kernel is not the one the Mat runs (CUDA times FP64 for an fp32 request).
struct TunerOutcome {
  TuneReport report;
  std::unique_ptr<ActionBackend> backend;
};

// What tuning needs from a backend: the cache key's device part and its tuner.
struct TuneTarget {
  std::string backend;  // "opencl", "cuda"
  std::string device, device_version, driver_version, nvrtc_version = "none";
  DeviceParams params;         // for the cost model's ranking
  std::string params_source;   // e.g. "probe cache ...", "defaults (no probe for OpenCL)"
  // Times the candidates on arrays with n_out outputs (random values, this Mat's maps).
  std::function<TunerOutcome(const ActionArrays &arrays, size_t n_out, const TuneSettings &settings)> tune;
  // Throws std::invalid_argument for a schedule this backend cannot run (a cached entry
  // holding one is skipped and retuned); unset: validate() against the form only.
  std::function<void(const Schedule &)> can_run;
};

PetscErrorCode MatFEMGPUGetContext(Mat A, MatFEMGPUContext **ctx);
PetscErrorCode MatFEMGPUSetUp(Mat A);
// Binds every coefficient the form uses (coefficient_binding.cpp): the Vec given, SNES's
// linearization point, or a field of the DM's auxiliary vector; errors name what is missing.
PetscErrorCode MatFEMGPUBindCoefficients(Mat A, MatFEMGPUContext *ctx);
PetscErrorCode MatView_FEMGPU(Mat A, PetscViewer viewer);
// Chooses and builds the backend (and its schedule) from the context's request.
PetscErrorCode MatFEMGPUMakeBackend(Mat A, MatFEMGPUContext *ctx);
// The schedule for -mat_fem_gpu_strategy auto: from the tuning cache when it holds a
// valid entry for this form, device and size, else tuned with target.tune (and stored);
// then *tuned is the tuner's backend of it (TunerOutcome), left null on a cache hit.
// The FEMGPUTune event covers lookup and tuning.
PetscErrorCode MatFEMGPUTuneSchedule(Mat A, MatFEMGPUContext *ctx, const TuneTarget &target, Schedule *chosen,
                                     std::unique_ptr<ActionBackend> *tuned);
// MatView's performance lines: measured GFLOP/s and GDoF/s, the roofline (Eq. 16).
PetscErrorCode MatFEMGPUDescribePerformance(Mat A, MatFEMGPUContext *ctx, std::string *text);
inline Precision MatFEMGPURequestedPrecision(const ScheduleRequest &r) { return r.precision == "fp32" ? Precision::FP32 : Precision::FP64; }
// Re-reads coefficient Vecs that changed; fills the action's arrays (pointers into the
// given local arrays, valid until they are restored).
PetscErrorCode MatFEMGPUApply(Mat A, Vec x, Vec y, bool add);  // y (+)= A x, no shell scaling
// z = y + A x (transpose: A^T x) through MatMult (MatMultTranspose), so that MATSHELL's
// scalings and shifts apply: MatMultAdd's path once the Mat has shell edits.
PetscErrorCode MatFEMGPUMultAddEdited(Mat A, Vec x, Vec y, Vec z, bool transpose);
// y_local += the action on local vectors of the DM (no ghost exchange): the residual's path.
PetscErrorCode MatFEMGPUApplyLocal(Mat A, Vec x_local, Vec y_local);
PetscErrorCode MatFEMGPURefreshCoefficients(MatFEMGPUContext *ctx);
// Host arrays of one apply; host_coefficients false leaves coefficient values null
// (they stay on the device).
PetscErrorCode MatFEMGPUFillArrays(MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, bool host_coefficients,
                                   ActionArrays *a);
// The same for one operator: its IR, maps and cell subset (empty: every cell);
// own-element coefficient maps are cut to the subset into *scratch.
PetscErrorCode MatFEMGPUFillOperatorArrays(MatFEMGPUContext *ctx, const ActionIR &ir, const PlexMaps &maps, const std::vector<PetscInt> &cells,
                                           std::vector<std::vector<int>> *scratch, const PetscScalar *trial, const PetscScalar *coords,
                                           bool host_coefficients, ActionArrays *a);
// Exterior facet operators (mat_femgpu_facets.cpp): at setup, after the maps (every
// cell's) and before the backend, the parts of the form's ds integrals, and for a form
// without dx integrals the Mat's own operator cut to its cells; then their backends.
PetscErrorCode MatFEMGPUSetUpFacets(Mat A, MatFEMGPUContext *ctx, const LowerOptions &lower);
PetscErrorCode MatFEMGPUMakeFacetBackends(Mat A, MatFEMGPUContext *ctx);
// out (local) += the facet parts' action (diagonal: false) or diagonal (true).
PetscErrorCode MatFEMGPUApplyFacets(Mat A, MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, PetscScalar *out, bool diagonal);
// Every cell matrix on the host, in coo_indices()'s order: the Mat's operator's cells,
// then each facet part's (mat_femgpu_assembly.cpp's host path).
PetscErrorCode MatFEMGPUCellMatrices(Mat A, MatFEMGPUContext *ctx, const PetscScalar *coords, std::vector<PetscScalar> *values);
// MatView's lines about the facet parts ("" without ds integrals).
std::string MatFEMGPUDescribeFacets(const MatFEMGPUContext *ctx);
// The GPU-resident apply y (+)= A x on global Vecs; *done is false when the Vecs,
// backend or communicator do not allow it.
PetscErrorCode MatFEMGPUApplyDevice(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add, PetscBool *done);
// The CUDA device PETSc's own vectors use (its default context), so the kernel runs
// where VECCUDA arrays live; -1 when this PETSc has no CUDA device.
PetscErrorCode MatFEMGPUPetscDeviceOrdinal(PetscInt *ordinal);
// Solver operations (mat_femgpu_solver.cpp): diagonal, transpose, duplicate, copy,
// symmetry. SetSolverOperations installs them at MatCreate; DetectSymmetry runs at setup.
PetscErrorCode MatFEMGPUSetSolverOperations(Mat A);
// Unchanged SNES programs (snes_jacobian.cpp): the SNES options checker that makes a DM's
// local Jacobian the fem_gpu operator, and the linearization point it binds.
PetscErrorCode MatFEMGPUSNESOptionsChecker(SNES snes);
PetscErrorCode MatZeroEntries_FEMGPU(Mat A);  // ts_ijacobian.cpp
PetscErrorCode MatFEMGPUSetLinearizationPoint(Mat A, Vec x_local);
// The form file of -dm_fem_gpu_form_file when the DM's residual is femgpu's (snes_residual.cpp),
// so its Jacobian Mats take derivative(F) without -mat_fem_gpu_form_file; unchanged otherwise.
PetscErrorCode MatFEMGPUFormOfDMResidual(DM dm, std::string *text, std::string *source);
// -dm_fem_gpu_form_file: the DM's residual becomes femgpu's (called by the SNES checker).
PetscErrorCode MatFEMGPUWrapDMResidual(DM dm);
// The residual Mat of the form file `file` on `dm`, which holds it (*residual is borrowed).
PetscErrorCode MatFEMGPUCreateDMResidual(DM dm, const char *file, Mat *residual);
// A Jacobian of the same form file as its DM's femgpu residual must have the residual's
// constants (an error names the first that differs); called at setup, once the residual
// has been set up.
PetscErrorCode MatFEMGPUCheckDMResidualConstants(Mat A, const MatFEMGPUContext *ctx);
PetscErrorCode MatFEMGPUDetectSymmetry(Mat A, MatFEMGPUContext *ctx);

// The MatSetFromOptions hook; its options argument's type changed in PETSc 3.23 (a
// pointer to PetscOptionItems before, a handle after): use the one this PETSc declares.
template <class F> struct FirstArg;
template <class R, class A0, class A1> struct FirstArg<R (*)(A0, A1)> { using type = A0; };
using OptionItems = FirstArg<decltype(&PetscOptionsHeadBegin)>::type;
PetscErrorCode MatSetFromOptions_FEMGPU(Mat A, OptionItems PetscOptionsObject);

// Inside FEMGPUSetUp: FEMGPUMaps (closure maps from the DMPlex), FEMGPUTune (first
// MatMult's tuning, CUDA/OpenCL), FEMGPUSymmetry (the cell-matrix symmetry check).
// FEMGPUApply covers the backend's call alone, on every path: the ghost exchanges
// (DMGlobalToLocal, DMLocalToGlobal) show under PETSc's own events.
// MatConvert to assembled types (mat_femgpu_assembly.cpp), installed at MatCreate.
PetscErrorCode MatFEMGPUSetAssemblyOperations(Mat A);
extern PetscLogEvent FEMGPU_Assembly;
// -pc_type fem_gpu_pmg (pc_femgpu_pmg.cpp): registers the PC and its events.
PetscErrorCode PCFEMGPUPMGRegister();
extern PetscLogEvent FEMGPU_Transfer;  // pmg_transfer.cpp

extern PetscLogEvent FEMGPU_SetUp, FEMGPU_Apply, FEMGPU_Diagonal, FEMGPU_Tune, FEMGPU_Maps, FEMGPU_Symmetry;

// -mat_fem_gpu_check_finite (mat_femgpu_finite.cpp): unless *done or the option is off,
// when `inputs`, the bound coefficients and the linearization point are finite, an error
// if `output` (of `operation`) is not; then *done. Collective on A.
PetscErrorCode MatFEMGPUCheckFinite(Mat A, MatFEMGPUContext *ctx, const char *operation, const std::vector<Vec> &inputs, Vec output, bool *done);

// One backend call of MatMult took `seconds` (wall time): counts it for MatView's time
// per apply and logs the action's FLOPs.
PetscErrorCode MatFEMGPURecordApply(MatFEMGPUContext *ctx, PetscLogDouble seconds);

}  // namespace femgpu
