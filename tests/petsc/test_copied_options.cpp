// The one copy of a fem_gpu Mat's options (MatFEMGPUCopiedOptions, mat_femgpu_options.h),
// field by field: a duplicate takes the original's options but keeps its own record of
// reading the options database and its own tuning options and -mat_fem_gpu_check_jacobian;
// a p-multigrid level takes what its changes name and keeps its own views and
// -mat_fem_gpu_check_finite as well. Every field of `from` differs from the same field of
// `own`, so a field copied from the wrong side shows. Then the same
// through MatDuplicate of a Mat that read its options.
#include <petscmat.h>

#include <string>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_options.h"

static const char help[] = "Checks the copy of a fem_gpu Mat's options that duplicates and p-multigrid levels take.\n";

namespace {

using femgpu::MatFEMGPUOptions;

int failures = 0;

void expect(bool ok, const std::string &what)
{
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", what.c_str(), ok ? "ok" : "FAIL");
}

// Options with every field set: `variant` 1 and 2 differ in every field.
MatFEMGPUOptions options(int variant)
{
  const bool one = variant == 1;
  MatFEMGPUOptions o;
  o.backend_name = one ? "cpu" : "opencl";
  o.quadrature_degree = one ? 3 : 4;
  o.compress_points = one ? PETSC_FALSE : PETSC_TRUE;
  o.view_ir = one ? PETSC_TRUE : PETSC_FALSE;
  o.view_source = one ? PETSC_FALSE : PETSC_TRUE;
  o.schedule.strategy = one ? "tiled" : "scpwi";
  o.schedule.precision = one ? "fp32" : "fp64";
  o.schedule.device = one ? 1 : 2;
  o.tune_monitor = one ? PETSC_TRUE : PETSC_FALSE;
  o.tune_budget = one ? 1 : 2;
  o.tune_plan = one ? "plan one" : "plan two";
  o.tune_cache = one ? "one.json" : "two.json";
  o.kernel_cache = one ? "one_kernels" : "two_kernels";
  o.retune = one ? PETSC_FALSE : PETSC_TRUE;
  o.symmetric_declared = one ? 0 : 1;
  o.options_read = one;
  o.check_jacobian_tol = one ? 0.1 : 0.2;
  o.check_finite = one ? PETSC_TRUE : PETSC_FALSE;
  o.boundary_label = one ? "one" : "two";
  o.options_prefix = one ? "one_" : "two_";
  return o;
}

// Which side each field came from: `from` (variant 1) or `own` (variant 2); the backend
// is the original's where check_backend (a level's is its changes', checked apart).
void expect_sources(const MatFEMGPUOptions &o, const std::string &copy, bool check_backend, bool views_and_checks_from_original)
{
  auto from = [&](bool is_from, bool expected_from, const char *field) {
    expect(is_from == expected_from, copy + ": " + field + (expected_from ? " from the original" : " its own"));
  };
  if (check_backend) from(o.backend_name == "cpu", true, "backend_name");
  from(o.quadrature_degree == 3, true, "quadrature_degree");
  from(!o.compress_points, true, "compress_points");
  from(o.symmetric_declared == 0, true, "symmetric_declared");
  from(o.boundary_label == "one", true, "boundary_label");
  from(o.kernel_cache == "one_kernels", true, "kernel_cache");  // the process's store: a copy must not install another
  from(o.view_ir == PETSC_TRUE, views_and_checks_from_original, "view_ir");
  from(o.view_source == PETSC_FALSE, views_and_checks_from_original, "view_source");
  from(o.check_finite == PETSC_TRUE, views_and_checks_from_original, "check_finite");
  from(o.tune_monitor == PETSC_TRUE, false, "tune_monitor");
  from(o.tune_budget == 1, false, "tune_budget");
  from(o.tune_plan == "plan one", false, "tune_plan");
  from(o.tune_cache == "one.json", false, "tune_cache");
  from(o.retune == PETSC_FALSE, false, "retune");
  from(o.options_read, false, "options_read");
  from(o.check_jacobian_tol == 0.1, false, "check_jacobian_tol");
  from(o.options_prefix == "one_", false, "options_prefix");
}

void check_function()
{
  const MatFEMGPUOptions from = options(1), own = options(2);
  const MatFEMGPUOptions duplicate = femgpu::MatFEMGPUCopiedOptions(from, own);
  expect_sources(duplicate, "duplicate", true, true);
  expect(duplicate.schedule.strategy == "tiled" && duplicate.schedule.precision == "fp32" && duplicate.schedule.device == 1,
         "duplicate: schedule from the original");
  femgpu::OptionsCopyChanges changes;
  changes.backend_name = "cuda";
  changes.schedule = femgpu::ScheduleRequest{};
  changes.schedule->precision = "fp32";
  changes.own_views_and_checks = true;
  const MatFEMGPUOptions level = femgpu::MatFEMGPUCopiedOptions(from, own, changes);
  expect_sources(level, "level", false, false);
  expect(level.backend_name == "cuda", "level: backend_name as its changes name");
  expect(level.schedule.strategy == "auto" && level.schedule.precision == "fp32" && level.schedule.device == -1,
         "level: schedule as its changes name");
}

// MatDuplicate of a Mat that read its options: the duplicate reads none.
PetscErrorCode check_duplicate()
{
  Mat A, B;
  femgpu::MatFEMGPUContext *a, *b;
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(nullptr, "-copied_mat_fem_gpu_quadrature_degree", "5"));
  PetscCall(PetscOptionsSetValue(nullptr, "-copied_mat_fem_gpu_check_finite", "1"));
  PetscCall(PetscOptionsSetValue(nullptr, "-copied_mat_fem_gpu_retune", "1"));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, 4, 4));
  PetscCall(MatSetType(A, MATFEMGPU));
  PetscCall(MatSetOptionsPrefix(A, "copied_"));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &B));
  PetscCall(femgpu::MatFEMGPUGetContext(A, &a));
  PetscCall(femgpu::MatFEMGPUGetContext(B, &b));
  expect(a->options.quadrature_degree == 5 && b->options.quadrature_degree == 5, "MatDuplicate: -mat_fem_gpu_quadrature_degree copied");
  expect(a->options.check_finite && b->options.check_finite, "MatDuplicate: -mat_fem_gpu_check_finite copied");
  expect(a->options.retune && !b->options.retune, "MatDuplicate: -mat_fem_gpu_retune not copied (the duplicate read no options)");
  expect(a->options.options_read && !b->options.options_read, "MatDuplicate: the duplicate read no options");
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  check_function();
  PetscCall(check_duplicate());
  PetscCall(PetscFinalize());
  return failures == 0 ? 0 : 1;
}
