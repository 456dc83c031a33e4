// -dm_fem_gpu_check_residual [TOL]: the form file's residual against the one the program
// itself gives, once, at the first residual SNES asks for.
//
// Why: with -dm_fem_gpu_form_file the physics is the form file's, and the program's PetscDS
// (its pointwise residual, forcing and boundary terms) is no longer run. A sign, a forcing
// or a coefficient written otherwise in the file is then solved without a word, and
// -mat_fem_gpu_check_jacobian sees only what changes the Jacobian. PETSc's own residual
// (DMPlexSNESComputeResidualFEM with the program's PetscDS) is the oracle.
// Takes: the DM, the program's local residual and boundary hook as they were before femgpu
// replaced them, the femgpu residual Mat, and the iterate SNES passes (a local vector).
// Does: at the iterate and at 3 random states (a random global vector made local as SNES
// makes it: the program's boundary hook inserts the essential values, then global-to-local),
// both residuals, summed into global vectors as SNES sums them; the worst relative
// difference |F_form - F_program|_2 / |F_program|_2 over the 4 states (|F_program| taken
// at least 1e-8 of the largest over the states, so that a converged iterate, where both
// are rounding, does not count as a mismatch). Above TOL: a PETSc error naming it, the
// state, TOL and the option; else a PetscInfo line.
// Does not: change the iterate, the residual SNES gets, or the residual Mat's setup.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

namespace femgpu {

using LocalResidual = PetscErrorCode (*)(DM, Vec, Vec, void *);
using LocalBoundary = PetscErrorCode (*)(DM, Vec, void *);

// The default TOL, 1e-10: where both quadratures are exact (polynomial data on affine
// cells) the two residuals are the same discrete residual and differ by rounding (5e-16
// on ex12's p-Laplacian), so a pass means the same residual with a margin of 1e5 for
// larger meshes; a wrong sign, forcing or coefficient differs by 1e-4 to 1 (ex12's). With
// non-polynomial data the two are different discretisations and differ by their
// quadrature error (ex13's sine forcing on its 8x8 P2 mesh: 1.5e-6), which no default
// can know: the check stops and names it, and a TOL above it is the user's statement
// that this much is quadrature.
constexpr PetscReal kCheckResidualDefaultTol = 1e-10;

struct ResidualCheck {
  LocalResidual program = nullptr;  // the program's local residual and its context
  void *program_ctx = nullptr;
  LocalBoundary boundary = nullptr;  // the program's boundary hook (null: none)
  void *boundary_ctx = nullptr;
  PetscReal tol = 0;  // 0: off
  bool done = false;
};

// Runs the check once (later calls return at once); `residual` is the fem_gpu Mat in
// residual mode whose apply replaced the program's residual; `file` names the form file.
PetscErrorCode check_residual_once(DM dm, Vec x_local, Mat residual, ResidualCheck *check);

}  // namespace femgpu
