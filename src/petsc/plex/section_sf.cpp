// The DM's section SF from the sections' arrays (section_sf.h): PetscSFSetGraphSection's
// walk, reading PETSc's arrays in place instead of calling a getter per point and value.
#include "petsc/plex/section_sf.h"

#include <petscsf.h>
#include <petsc/private/dmimpl.h>

#include "petsc/plex/section_arrays.h"

namespace femgpu {

PetscErrorCode plex_section_sf_graph(PetscSF sf, PetscSection local, PetscSection global)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  PetscMPIInt size, rank;
  PetscLayout layout;
  const PetscInt *ranges;
  SectionArrays ls, gs;
  PetscInt nroots, nleaves = 0, pStart, pEnd;
  PetscInt *ilocal;
  PetscSFNode *iremote;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscSectionGetChart(global, &pStart, &pEnd));
  PetscCall(PetscSectionGetConstrainedStorageSize(global, &nroots));
  PetscCall(PetscLayoutCreate(comm, &layout));
  PetscCall(PetscLayoutSetBlockSize(layout, 1));
  PetscCall(PetscLayoutSetLocalSize(layout, nroots));
  PetscCall(PetscLayoutSetUp(layout));
  PetscCall(PetscLayoutGetRanges(layout, &ranges));
  PetscCall(section_arrays(local, -1, &ls));
  PetscCall(section_arrays(global, -1, &gs));
  auto gdof_of = [&](PetscInt p) { return gs.dofs[p - pStart]; };
  auto gcdof_of = [&](PetscInt p) { return gs.n_constrained(p); };
  for (PetscInt p = pStart; p < pEnd; ++p) {
    const PetscInt gdof = gdof_of(p), gcdof = gcdof_of(p), n = gdof < 0 ? -(gdof + 1) : gdof;
    PetscCheck(gcdof <= n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Point %" PetscInt_FMT " has %" PetscInt_FMT " constraints > %" PetscInt_FMT " dof", p, gcdof, n);
    nleaves += n - gcdof;
  }
  PetscCall(PetscMalloc1(nleaves, &ilocal));
  PetscCall(PetscMalloc1(nleaves, &iremote));
  PetscInt l = 0;
  for (PetscInt p = pStart; p < pEnd; ++p) {
    const PetscInt gdof = gdof_of(p);
    if (!gdof) continue;  // censored point
    const PetscInt dof = ls.dof(p), off = ls.contains(p) ? ls.offset(p) : 0, goff = gs.offset(p);
    PetscInt cdof = ls.contains(p) ? ls.n_constrained(p) : 0;
    const PetscInt *cind = cdof ? ls.constrained(p) : nullptr;
    const PetscInt gsize = (gdof < 0 ? -(gdof + 1) : gdof) - gcdof_of(p);
    if (gsize != dof - cdof) {
      PetscCheck(gsize == dof, comm, PETSC_ERR_ARG_WRONG, "Global dof %" PetscInt_FMT " for point %" PetscInt_FMT " is neither the constrained size %" PetscInt_FMT ", nor the unconstrained %" PetscInt_FMT,
                 gsize, p, dof - cdof, dof);
      cdof = 0;  // the global section includes the constrained DOFs
    }
    PetscInt d = 0, c = 0;
    for (; d < dof; ++d) {
      if (c < cdof && cind[c] == d) {
        ++c;
        continue;
      }
      ilocal[l + d - c] = off + d;
    }
    PetscCheck(d - c == gsize, comm, PETSC_ERR_ARG_WRONG, "Point %" PetscInt_FMT ": Global dof %" PetscInt_FMT " != %" PetscInt_FMT " size - number of constraints", p, gsize, d - c);
    for (d = 0; d < gsize; ++d, ++l) {
      if (gdof < 0) {  // a ghost: its owner's offset, -(goff + 1)
        const PetscInt offset = -(goff + 1) + d;
        PetscInt ir;
        PetscCall(PetscFindInt(offset, size + 1, ranges, &ir));
        PetscMPIInt r;
        PetscCall(PetscMPIIntCast(ir < 0 ? -(ir + 2) : ir, &r));
        PetscCheck(r >= 0 && r < size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Point %" PetscInt_FMT " mapped to invalid process %d (%" PetscInt_FMT ", %" PetscInt_FMT ")", p,
                   (int)r, gdof, goff);
        iremote[l].rank = r;
        iremote[l].index = offset - ranges[r];
      } else {
        iremote[l].rank = rank;
        iremote[l].index = goff + d - ranges[rank];
      }
    }
  }
  PetscCheck(l == nleaves, comm, PETSC_ERR_PLIB, "fem_gpu: section SF with %" PetscInt_FMT " leaves, %" PetscInt_FMT " expected", l, nleaves);
  PetscCall(PetscLayoutDestroy(&layout));
  PetscCall(PetscSFSetGraph(sf, nroots, nleaves, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_set_section_sf(DM dm)
{
  PetscSection local, global;
  PetscSF sf;
  PetscInt nroots = -1;
  PetscFunctionBegin;
  if (dm->sectionSF) PetscCall(PetscSFGetGraph(dm->sectionSF, &nroots, nullptr, nullptr, nullptr));
  if (nroots >= 0) PetscFunctionReturn(PETSC_SUCCESS);  // the DM has one
  PetscCall(DMGetLocalSection(dm, &local));
  if (!local) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetGlobalSection(dm, &global));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)dm), &sf));
  PetscCall(plex_section_sf_graph(sf, local, global));
  PetscCall(DMSetSectionSF(dm, sf));
  PetscCall(PetscSFDestroy(&sf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
