// Essential boundary values as PETSc inserts them, without PETSc's per-call cost.
//
// Takes: a DMPlex with one Lagrange field, affine (P1) coordinates and its PetscDS
// boundaries (DMAddBoundary), and femgpu's closure maps of that DM (plex_maps.h).
// Returns: a plan, built once: for every constrained local DOF the program's DM_BC_ESSENTIAL
// function must give a value to, the node it sits on (physical coordinates, from the cell
// and the element's reference node) and the boundary whose function gives it. Inserting
// then evaluates each function once per node and writes the constrained entries, the
// values DMPlexInsertBoundaryValues writes (point evaluation at the Lagrange nodes; where
// two boundaries constrain one DOF, the later one wins, as PETSc inserts them in order).
// Why: PETSc 3.26's DMPlexInsertBoundaryValues re-sorts the cell-type label several
// times per call (seconds at millions of cells), and SNES calls it for every residual
// and Jacobian; the plan makes each call one pass over the boundary nodes.
// Does not: support other boundary kinds (ESSENTIAL_FIELD, ESSENTIAL_BD_FIELD), several
// fields or DSs, or curved coordinates: the plan then says why not (`unsupported`) and
// the caller keeps PETSc's insertion. Natural conditions insert nothing, here as in PETSc.
#pragma once

#include <petscdmplex.h>

#include <string>
#include <vector>

#include "petsc/base/petsc_compat.h"
#include "petsc/plex/plex_maps.h"

namespace femgpu {

using EssentialFunction = PetscErrorCode (*)(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar u[], void *ctx);

struct EssentialPlan {
  std::string unsupported;  // empty: the plan inserts what PETSc would; else why PETSc must
  struct Boundary {
    EssentialFunction function = nullptr;
    EssentialFunction time_derivative = nullptr;  // DMAddBoundary's bcFunc_t (TS's U_t), may be null
    void *context = nullptr;
  };
  struct Write {
    PetscInt index;  // into the local vector
    int component;   // of the function's value
  };
  // One evaluation: boundary `boundary`'s function at x, giving writes[first, first + count).
  struct Node {
    PetscReal x[3];
    int boundary;
    int first, count;
  };
  PetscInt dim = 0, components = 0;
  std::vector<Boundary> boundaries;
  std::vector<Node> nodes;
  std::vector<Write> writes;
  PetscObjectState coordinates_state = -1;  // of the local coordinates the plan was built on
};

PetscErrorCode essential_plan_build(DM dm, const PlexMaps &maps, EssentialPlan *plan);
// Writes the essential values at `time` into the local vector x_local (other entries
// untouched); with time_derivative, the values of the boundaries' time derivatives (as
// DMPlexInsertTimeDerivativeBoundaryValues writes them into U_t), which every boundary
// must have (essential_plan_has_time_derivatives).
PetscErrorCode essential_plan_insert(const EssentialPlan &plan, PetscReal time, Vec x_local, bool time_derivative = false);
// The same values, one per entry of plan.writes, into `values` (host memory of
// plan.writes.size() entries), for a caller that writes them into x_local itself (the
// boundary-values hook scatters them on the device where x_local lives there).
PetscErrorCode essential_plan_values(const EssentialPlan &plan, PetscReal time, bool time_derivative, PetscScalar *values);
bool essential_plan_has_time_derivatives(const EssentialPlan &plan);

}  // namespace femgpu
