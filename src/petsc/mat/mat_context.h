// The state behind a `fem_gpu` Mat, in four parts: what the user configured
// (MatFEMGPUOptions), the operator and what setup derives from it (OperatorDescription:
// the lowered form, tables, closure maps), where it runs (DeviceState: the backend and its
// measured applies) and what tuning chose (TuningResult). Private to src/petsc/.
// Holds the structs only: the functions that read and write them are declared by the
// headers of the files that define them (mat_femgpu.h: MatFEMGPUGetContext and the apply;
// mat_femgpu_setup.h, ...), and what tuning needs from a backend by mat_femgpu_tune.h.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "tune/cost_model.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_femgpu_shell_edits.h"
#include "petsc/plex/plex_maps.h"
#include "runtime/action_backend.h"
#include "schedule/schedule_words.h"

namespace femgpu {

struct TunePlan;       // tune/tune_plan_value.h
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
// The kernel's precision the request names.
inline Precision MatFEMGPURequestedPrecision(const ScheduleRequest &r) { return r.precision == "fp32" ? Precision::FP32 : Precision::FP64; }

// What the user asked for, by API calls (mat_femgpu_api.cpp) and the options database
// (mat_femgpu_options.cpp); setup, tuning and MatView read it, nothing derived is kept here.
// MatDuplicate and the p-multigrid levels copy it through MatFEMGPUCopiedOptions
// (mat_femgpu_options.h).
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
  // -mat_fem_gpu_tune_plan as given: a plan text (tune_plan.h: rounds and the tuning
  // parameters of tune_params.h), "print" or empty (the backend's default plan and
  // parameters); and the plan parsed from it where the option was read (null where empty),
  // which is what tuning takes: the text is not read again.
  std::string tune_plan;
  std::shared_ptr<const TunePlan> parsed_tune_plan;
  std::string tune_cache = "default";  // "default" (XDG path), "none" (off) or a file
  std::string kernel_cache = "default";  // compiled CUDA kernels: "default" (XDG folder), "none" (off) or a folder
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

// A form lowered for one element: the parts of OperatorDescription that lowering derives,
// with what they were derived from (mat_femgpu_setup.cpp's lower_operator).
struct LoweredOperator {
  std::string form_text, form_source;
  std::shared_ptr<const Form> given_form;
  FormSignature signature;
  bool residual = false;
  PetscInt quadrature_degree = -1;
  bool compress_points = true;
  std::shared_ptr<const Form> form;
  std::shared_ptr<const ActionIR> ir;
  std::shared_ptr<const Tabulation> tab;
  bool on_facets = false;
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
  // A block of a mixed form (mat_femgpu_fields.cpp): lowered as it is, instead of
  // parsing form_text (which then only names it in messages).
  std::shared_ptr<const Form> given_form;

  // Derived at setup (first use after the DM and form are known).
  DM dm = nullptr;
  FormSignature signature;
  std::shared_ptr<const ActionIR> ir;
  std::shared_ptr<const Tabulation> tab;
  // What lowering made of the form (form, ir, tab, on_facets) with what it was made from:
  // a MatDuplicate or MatCopy shares its source's and lowers nothing where that matches.
  std::shared_ptr<const LoweredOperator> lowered;
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
  std::shared_ptr<const PlexMaps> mesh_maps_shared() const { return dm_maps ? dm_maps : shared_maps; }
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
  unsigned setups = 0;  // completed setups: a new form, DM or options makes another operator
  PetscLogDouble setup_seconds = 0;
  // The last diagonal MatGetDiagonal computed (before MATSHELL's scalings) and the
  // operator's values key then (operator_values_key.h): a call with the same key copies it.
  Vec diagonal = nullptr;
  std::vector<double> diagonal_key;
  bool jacobian_checked = false;  // -mat_fem_gpu_check_jacobian ran (snes_jacobian.cpp)
  // MatZeroEntries made it the zero matrix until a linearization point binds its operator
  // again (mat_femgpu.cpp; TS zeroes the Jacobian before each IJacobian: ts_ijacobian.cpp).
  bool zeroed = false;
  // MatConvert's cell matrices come from the CPU reference, not the backend's kernel: the
  // p-multigrid's coarse level after a device failure (pmg_coarse.h).
  bool host_assembly = false;
  bool time_shift_noted = false;  // the PetscInfo line of a form without TS's shift was printed
  bool apply_finite_checked = false, diagonal_finite_checked = false;  // -mat_fem_gpu_check_finite ran
  // MatScale, MatShift ... since the last final assembly, for assembled copies (mat_femgpu_shell_edits.h).
  ShellEdits shell_edits;
  // Over a DM with several fields: the blocks of the mixed form (mat_femgpu_fields.h),
  // made at the first use instead of the single-field setup; null otherwise.
  std::shared_ptr<FieldBlocks> fields;
};

}  // namespace femgpu
