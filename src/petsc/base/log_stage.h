// PETSc log stages of the library: "femgpu setup" (a Mat's one-time work: form, tables,
// closure maps, geometry, backend) and, nested in it, "femgpu tuning" (first-time tuning,
// not a cache hit), so -log_view shows what a solve spends on femgpu's own setup.
//
// ScopedLogStage pushes a stage and pops it when it goes out of scope, so the stack stays
// balanced on every path out of a function, error returns (PetscCall) included.
// Events are begun and ended inside the stage they belong to: PETSc attributes an event's
// time to the stage active at its end, and a stage pushed between an event's begin and
// end would split it.
#pragma once

#include <petsclog.h>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

namespace femgpu {

constexpr const char *kStageSetUp = "femgpu setup", *kStageTuning = "femgpu tuning";

class ScopedLogStage {
 public:
  ScopedLogStage() = default;
  ScopedLogStage(const ScopedLogStage &) = delete;
  ScopedLogStage &operator=(const ScopedLogStage &) = delete;
  ~ScopedLogStage()
  {
    if (pushed_) (void)PetscLogStagePop();  // an error here cannot be reported; the push succeeded
  }
  // Registers the stage `name` on its first use (a stage never entered is not listed).
  PetscErrorCode push(const char *name)
  {
    PetscLogStage stage;
    PetscFunctionBegin;
    PetscCall(PetscLogStageGetId(name, &stage));
    if (stage < 0) PetscCall(PetscLogStageRegister(name, &stage));
    PetscCall(PetscLogStagePush(stage));
    pushed_ = true;
    PetscFunctionReturn(PETSC_SUCCESS);
  }

 private:
  bool pushed_ = false;
};

}  // namespace femgpu
