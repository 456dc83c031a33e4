// The finest smoother's operator of the p-multigrid (pc_femgpu_pmg.cpp).
//
// A shell that applies the PC's operator and gives its diagonal, with a state of its own
// that the PC increases only when the operator's values change (operator_values_key.h). TS bumps the operator's state at every IJacobian; on
// the operator itself Chebyshev would estimate its eigenvalues again and Jacobi take the
// diagonal again at every step, 31 and 22 ms of a 160 ms step at 3D P2 with 1.09M unknowns
// on an H100, for the same values.
// The shell makes the operator's own Vecs and carries its symmetry flags.
#pragma once

#include <petscmat.h>

namespace femgpu {

// W applies `op` (it holds a reference) and gives its diagonal; the caller increases W's
// state when op's values change.
PetscErrorCode PMGCreateFineView(Mat op, Mat *W);

}  // namespace femgpu
