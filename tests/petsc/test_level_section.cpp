// A p-multigrid level's section derived from the fine DM's (plex_set_level_section,
// src/petsc/plex/level_section.cpp) is the one PETSc builds itself for the same level DM
// (DMPlexCreateSection from the level's PetscFE and the copied DS boundaries): per point
// of the chart its DOF count, offset, constrained DOFs and their indices, for the section
// and its field, the global section and its field (derived too, from the level's section
// and the point SF, against the one PETSc makes from its own), and every cell's closure read
// through DMPlexVecGetClosure. For every fine degree in -degrees and every level degree
// below it, scalar or vector fields (-components 1 or 0: the dimension), with an essential
// condition on the "left" faces (a vector field's on its first component only, so the
// level constrains a subset of components), on box meshes, Gmsh files and refined meshes,
// on any number of ranks. Levels of degree <= 2 must be derived; higher ones must be
// refused (PETSc builds them); a derived P1 level's chart must be the vertices only.
// Exit code 1 on the first difference.
#include <petscdmplex.h>
#include <petscfe.h>

#include <vector>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/plex/level_section.h"
#include "petsc/pmg/pmg_levels.h"

static const char help[] = "Compares a p-multigrid level's derived section with PETSc's.\n"
                           "  -degrees 2,3,4 -components C (0: the dimension)\n";

namespace {

// The fine DM: the mesh from the options, a Lagrange field of `degree`, the left condition.
PetscErrorCode fine_dm(MPI_Comm comm, PetscInt degree, PetscInt components, DM *dm)
{
  PetscFE fe;
  DMLabel label;
  PetscInt dim, left = 1, first = 0;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(MarkLeftBoundary(*dm));
  const PetscInt Nc = components ? components : dim;
  PetscCall(PetscFECreateLagrange(comm, dim, Nc, PETSC_TRUE, degree, degree + 1, &fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetLabel(*dm, "left", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, Nc > 1 ? 1 : 0, Nc > 1 ? &first : nullptr, nullptr, nullptr, nullptr, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Differences between two sections' layouts and constraints, point by point over both
// charts (field < 0: the section itself, else that field): a point outside a chart has no
// DOFs there, nor has a global section's ghost point marked -1 (-(0 + 1): another rank's,
// without DOFs), and an offset counts only where the point has DOFs. The derived section's
// chart is the points of the depths with DOFs (PETSc's the whole mesh): *chart_points adds
// the size of a's chart.
PetscErrorCode section_differences(PetscSection a, PetscSection b, PetscInt field, PetscInt *differences, PetscInt *chart_points = nullptr)
{
  PetscInt aStart, aEnd, bStart, bEnd;
  PetscFunctionBegin;
  if (field >= 0) {
    PetscCall(PetscSectionGetField(a, field, &a));
    PetscCall(PetscSectionGetField(b, field, &b));
  }
  PetscCall(PetscSectionGetChart(a, &aStart, &aEnd));
  PetscCall(PetscSectionGetChart(b, &bStart, &bEnd));
  if (chart_points) *chart_points += aEnd - aStart;
  struct Point {
    PetscInt dof = 0, offset = 0, n_constrained = 0;
    const PetscInt *constrained = nullptr;
  };
  auto read = [](PetscSection s, PetscInt start, PetscInt end, PetscInt p, Point *q) -> PetscErrorCode {
    PetscFunctionBegin;
    *q = Point();
    if (p < start || p >= end) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscSectionGetDof(s, p, &q->dof));
    if (q->dof == -1) q->dof = 0;
    PetscCall(PetscSectionGetOffset(s, p, &q->offset));
    PetscCall(PetscSectionGetConstraintDof(s, p, &q->n_constrained));
    if (q->n_constrained) PetscCall(PetscSectionGetConstraintIndices(s, p, &q->constrained));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  for (PetscInt p = PetscMin(aStart, bStart); p < PetscMax(aEnd, bEnd); ++p) {
    Point pa, pb;
    PetscCall(read(a, aStart, aEnd, p, &pa));
    PetscCall(read(b, bStart, bEnd, p, &pb));
    *differences += (pa.dof != pb.dof) + (pa.dof != 0 && pa.offset != pb.offset) + (pa.n_constrained != pb.n_constrained);
    if (pa.n_constrained != pb.n_constrained) continue;
    for (PetscInt k = 0; k < pa.n_constrained; ++k) *differences += pa.constrained[k] != pb.constrained[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Differences between the cells' closures of an index vector on each DM's local section.
PetscErrorCode closure_differences(DM a, DM b, PetscInt *differences)
{
  PetscInt cStart, cEnd;
  Vec va, vb;
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(a, &va));
  PetscCall(DMGetLocalVector(b, &vb));
  for (Vec v : {va, vb}) {
    PetscInt n;
    PetscScalar *x;
    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecGetArray(v, &x));
    for (PetscInt i = 0; i < n; ++i) x[i] = static_cast<PetscScalar>(i);
    PetscCall(VecRestoreArray(v, &x));
  }
  PetscCall(DMPlexGetHeightStratum(a, 0, &cStart, &cEnd));
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscInt na = 0, nb = 0;
    PetscScalar *xa = nullptr, *xb = nullptr;
    PetscCall(DMPlexVecGetClosure(a, nullptr, va, c, &na, &xa));
    PetscCall(DMPlexVecGetClosure(b, nullptr, vb, c, &nb, &xb));
    *differences += na != nb;
    for (PetscInt i = 0; i < na && i < nb; ++i) *differences += xa[i] != xb[i];
    PetscCall(DMPlexVecRestoreClosure(a, nullptr, va, c, &na, &xa));
    PetscCall(DMPlexVecRestoreClosure(b, nullptr, vb, c, &nb, &xb));
  }
  PetscCall(DMRestoreLocalVector(a, &va));
  PetscCall(DMRestoreLocalVector(b, &vb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_level(DM fine, PetscInt degree, PetscInt *differences, bool *derived, PetscInt *chart_points)
{
  DM ours, petsc;
  PetscSection so, sp, go, gp;
  PetscFunctionBegin;
  *differences = 0;
  *chart_points = 0;
  PetscCall(femgpu::PMGCloneLevelDM(fine, degree, &ours));  // as the p-multigrid makes a level's, its section not yet built
  PetscCall(femgpu::PMGCloneLevelDM(fine, degree, &petsc));
  PetscCall(femgpu::plex_set_level_section(fine, ours, derived));
  PetscCall(DMGetLocalSection(ours, &so));
  PetscCall(DMGetLocalSection(petsc, &sp));
  PetscCall(section_differences(so, sp, -1, differences, chart_points));
  PetscCall(section_differences(so, sp, 0, differences));
  PetscCall(DMGetGlobalSection(ours, &go));
  PetscCall(DMGetGlobalSection(petsc, &gp));
  PetscCall(section_differences(go, gp, -1, differences));
  PetscCall(section_differences(go, gp, 0, differences));
  PetscCall(closure_differences(ours, petsc, differences));
  PetscCall(DMDestroy(&ours));
  PetscCall(DMDestroy(&petsc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {2, 3, 4}, n_degrees = 8, components = 1, failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-components", &components, nullptr));
  for (PetscInt i = 0; i < n_degrees; ++i) {
    DM fine;
    PetscSection section;
    PetscCall(fine_dm(PETSC_COMM_WORLD, degrees[i], components, &fine));
    PetscCall(DMGetLocalSection(fine, &section));  // PETSc's, as the fine Mat's is
    for (PetscInt level = 1; level < degrees[i]; ++level) {
      PetscInt differences, chart_points, vStart, vEnd;
      bool derived;
      PetscCall(check_level(fine, level, &differences, &derived, &chart_points));
      // A derived P1 level's chart is the vertices, not the whole mesh.
      PetscCall(DMPlexGetDepthStratum(fine, 0, &vStart, &vEnd));
      PetscInt wide = derived && level == 1 && chart_points != vEnd - vStart;
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &differences, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &wide, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
      const bool expected = level <= 2, bad = differences > 0 || wide || derived != expected;
      failures += bad ? 1 : 0;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P%d -> P%d, %d components (0: the dimension): %s, %d differences from PETSc's%s  %s\n", (int)degrees[i], (int)level,
                            (int)components, derived ? "derived" : "built by PETSc", (int)differences, wide ? ", a chart wider than the vertices" : "",
                            bad ? "FAIL" : "ok"));
    }
    PetscCall(DMDestroy(&fine));
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
