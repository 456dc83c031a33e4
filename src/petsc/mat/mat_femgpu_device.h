// The GPU-resident MatMult on PETSc's device arrays (mat_femgpu_device.cpp).
#pragma once

#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// The GPU-resident apply y (+)= A x on global Vecs; *done is false when the Vecs,
// backend or communicator do not allow it.
PetscErrorCode MatFEMGPUApplyDevice(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add, PetscBool *done);
// The same on local (ghosted) Vecs, y_local += A x_local, as the residual of a form file
// runs it (no communication); *done is false where the host path must run instead.
PetscErrorCode MatFEMGPUApplyLocalDevice(Mat A, MatFEMGPUContext *ctx, Vec x_local, Vec y_local, PetscBool *done);
// d = the diagonal, on one rank, written by the kernel into d's device array through the
// maps in the global numbering (as the one-rank MatMult: the same device data, no local
// Vec, no host copy, no DMLocalToGlobal); *done is false where the host path must run (not
// one rank, host Vecs, a coefficient not bound, facet parts, an FP32 schedule).
PetscErrorCode MatFEMGPUDiagonalDevice(Mat A, MatFEMGPUContext *ctx, Vec d, PetscBool *done);

}  // namespace femgpu
