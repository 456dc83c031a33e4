// femgpu's plan of the essential boundary values (src/petsc/plex/essential_values.cpp) writes
// what PETSc's DMPlexInsertBoundaryValues writes, entry for entry: on a local vector of
// random values, both insert the same DM's conditions and the vectors must agree to
// rounding everywhere, constrained entries and untouched ones. Two boundaries overlap
// (the "left" faces, then the whole "boundary", in both orders with -order 1) and may
// constrain some components only (-components C, -comps_left, -comps_all); any mesh from
// the options database, any number of ranks. The plan must also cover every constrained
// DOF of the section. Exit code 1 on any difference.
#include <petscdmplex.h>
#include <petscfe.h>

#include <cmath>
#include <vector>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/plex/essential_values.h"
#include "petsc/plex/plex_maps.h"

static const char help[] = "Compares femgpu's essential boundary values with DMPlexInsertBoundaryValues.\n"
                           "  -degrees 1,2,3 -components C (0: the dimension) -comps_left 0 -comps_all 1 -order 0|1\n";

namespace {

// Two different smooth functions, so that a DOF given the wrong boundary's value shows.
PetscErrorCode left_values(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 1.0 + (c + 1) * x[0] + 2.0 * x[1] * x[1] + (dim > 2 ? x[2] * x[2] * x[2] : 0.0);
  return PETSC_SUCCESS;
}

PetscErrorCode boundary_values(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 3.0 - x[0] * x[1] + c * std::sin(x[1] + (dim > 2 ? x[2] : 0.0));
  return PETSC_SUCCESS;
}

struct Setup {
  PetscInt degree, components;
  std::vector<PetscInt> comps_left, comps_all;
  bool all_first;
};

PetscErrorCode add_boundaries(DM dm, const Setup &s)
{
  DMLabel left, boundary;
  PetscInt one = 1;
  PetscFunctionBegin;
  PetscCall(DMGetLabel(dm, "left", &left));
  PetscCall(DMGetLabel(dm, "boundary", &boundary));
  PetscCall(DMPlexLabelComplete(dm, boundary));
  auto add_left = [&]() {
    return DMAddBoundary(dm, DM_BC_ESSENTIAL, "left", left, 1, &one, 0, (PetscInt)s.comps_left.size(), s.comps_left.data(), (void (*)(void))left_values, nullptr, nullptr, nullptr);
  };
  auto add_all = [&]() {
    return DMAddBoundary(dm, DM_BC_ESSENTIAL, "all", boundary, 1, &one, 0, (PetscInt)s.comps_all.size(), s.comps_all.data(), (void (*)(void))boundary_values, nullptr, nullptr, nullptr);
  };
  if (s.all_first) {
    PetscCall(add_all());
    PetscCall(add_left());
  } else {
    PetscCall(add_left());
    PetscCall(add_all());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Largest |PETSc - femgpu| over the local vector, relative to the largest value; and how
// many constrained DOFs of the section the plan does not write.
PetscErrorCode compare(DM dm, PetscReal *difference, PetscInt *missing)
{
  femgpu::PlexMaps maps;
  femgpu::EssentialPlan plan;
  Vec petsc, ours;
  PetscRandom rnd;
  PetscSection section;
  PetscInt constrained;
  PetscFunctionBegin;
  PetscCall(femgpu::plex_build_maps(dm, &maps));
  PetscCall(femgpu::essential_plan_build(dm, maps, &plan));
  PetscCheck(plan.unsupported.empty(), PETSC_COMM_SELF, PETSC_ERR_PLIB, "the plan is unsupported: %s", plan.unsupported.c_str());
  PetscCall(DMGetLocalVector(dm, &petsc));
  PetscCall(DMGetLocalVector(dm, &ours));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(VecSetRandom(petsc, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecCopy(petsc, ours));
  PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, petsc, PETSC_MIN_REAL, nullptr, nullptr, nullptr));
  PetscCall(femgpu::essential_plan_insert(plan, PETSC_MIN_REAL, ours));
  PetscReal scale;
  PetscCall(VecNorm(petsc, NORM_INFINITY, &scale));
  PetscCall(VecAXPY(ours, -1.0, petsc));
  PetscCall(VecNorm(ours, NORM_INFINITY, difference));
  *difference /= scale;
  PetscCall(DMRestoreLocalVector(dm, &petsc));
  PetscCall(DMRestoreLocalVector(dm, &ours));
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(PetscSectionGetConstrainedStorageSize(section, &constrained));
  PetscInt storage;
  PetscCall(PetscSectionGetStorageSize(section, &storage));
  *missing = (storage - constrained) - static_cast<PetscInt>(plan.writes.size());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check(MPI_Comm comm, const Setup &s, PetscReal *difference, PetscInt *missing)
{
  DM dm;
  PetscFE fe;
  PetscInt dim;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(MarkLeftBoundary(dm));
  PetscCall(PetscFECreateLagrange(comm, dim, s.components ? s.components : dim, PETSC_TRUE, s.degree, s.degree + 1, &fe));
  PetscCall(DMAddField(dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(add_boundaries(dm, s));
  PetscCall(compare(dm, difference, missing));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2, 3, 4}, n_degrees = 8, comps[2][3], n_comps[2] = {3, 3}, order = 0;
  Setup s{1, 1, {}, {}, false};
  PetscInt failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-components", &s.components, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-order", &order, nullptr));
  PetscBool set[2];
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-comps_left", comps[0], &n_comps[0], &set[0]));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-comps_all", comps[1], &n_comps[1], &set[1]));
  if (set[0]) s.comps_left.assign(comps[0], comps[0] + n_comps[0]);
  if (set[1]) s.comps_all.assign(comps[1], comps[1] + n_comps[1]);
  s.all_first = order == 1;
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscReal difference;
    PetscInt missing;
    s.degree = degrees[i];
    PetscCall(check(PETSC_COMM_WORLD, s, &difference, &missing));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &difference, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &missing, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    const bool bad = !(difference <= 1e-14) || missing != 0;
    failures += bad ? 1 : 0;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P%d, %d components (0: the dimension): largest difference %.2e, %d constrained DOFs not written  %s\n", (int)s.degree,
                          (int)s.components, (double)difference, (int)missing, bad ? "FAIL" : "ok"));
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
