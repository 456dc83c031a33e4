// A fem_gpu Mat's options (mat_femgpu_options.cpp): MatSetFromOptions, and the one copy of
// them that a Mat made from another takes (MatDuplicate, MatCopy, a p-multigrid level).
#pragma once

#include <petscmat.h>

#include <optional>
#include <string>

#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_context.h"

namespace femgpu {

PetscErrorCode MatSetFromOptions_FEMGPU(Mat A, OptionItems PetscOptionsObject);

// What a copy of a Mat's options takes otherwise than the original's (MatFEMGPUCopiedOptions).
// Empty (the default): MatDuplicate's and MatCopy's copy.
struct OptionsCopyChanges {
  // A p-multigrid level runs the backend `auto` chose for the fine Mat, not its option.
  std::optional<std::string> backend_name;
  // A level's schedule request (its degree's, pmg_levels.cpp) and precision.
  std::optional<ScheduleRequest> schedule;
  // A level keeps its own -mat_fem_gpu_view, -mat_fem_gpu_view_source and
  // -mat_fem_gpu_check_finite: it reads them itself with the fine Mat's prefix
  // (MatSetFromOptions, where the fine Mat read its options), and has them off otherwise.
  bool own_views_and_checks = false;
};

// The options of a Mat made from one with options `from`: a value copy of them, but
//  - the new Mat keeps its own (`own`) record of its options reading, options_read and
//    options_prefix (its form's constants are read at setup under its own prefix), and its
//    own tuning options (tune_monitor, tune_budget, tune_plan with its parsed plan,
//    tune_cache, retune) and check_jacobian_tol: neither copy has taken them, so a
//    duplicate tunes, caches and checks as its own options (or the defaults) say;
//  - what `changes` names.
MatFEMGPUOptions MatFEMGPUCopiedOptions(const MatFEMGPUOptions &from, const MatFEMGPUOptions &own, const OptionsCopyChanges &changes = {});

}  // namespace femgpu
