// PETSc's own closure indices, cell by cell (plex_closure_by_vec.h).
#include "petsc/plex/plex_closure_by_vec.h"

#include <algorithm>

namespace femgpu {

PetscErrorCode plex_index_vector(PetscSection section, Vec *v)
{
  PetscInt n;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetStorageSize(section, &n));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, v));
  PetscCall(VecGetArray(*v, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = static_cast<PetscScalar>(i);
  PetscCall(VecRestoreArray(*v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_cell_closure_by_vec(DM dm, PetscSection section, Vec indices, PetscInt cell, std::vector<int> *out)
{
  PetscInt n = 0;
  PetscScalar *idx = nullptr;
  PetscFunctionBegin;
  PetscCall(DMPlexVecGetClosure(dm, section, indices, cell, &n, &idx));
  out->resize(static_cast<size_t>(n));
  for (PetscInt i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = static_cast<int>(PetscRealPart(idx[i]));
  PetscCall(DMPlexVecRestoreClosure(dm, section, indices, cell, &n, &idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_closure_agrees_with_petsc(DM dm, PetscSection section, Vec idx, PetscInt cStart, PetscInt cEnd, PetscInt width, const IndexArray &indices,
                                              bool *agrees)
{
  const PetscInt n = cEnd - cStart, samples = std::min<PetscInt>(n, 64);
  std::vector<int> want;
  PetscFunctionBegin;
  *agrees = true;
  for (PetscInt s = 0; s < samples && *agrees; ++s) {
    const PetscInt c = cStart + (samples > 1 ? s * (n - 1) / (samples - 1) : 0);
    PetscCall(plex_cell_closure_by_vec(dm, section, idx, c, &want));
    *agrees = static_cast<PetscInt>(want.size()) == width && std::equal(want.begin(), want.end(), indices.begin() + (c - cStart) * width);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_closure_indices_by_vec(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices)
{
  Vec idx;
  std::vector<int> cell;
  PetscFunctionBegin;
  *width = 0;
  indices->clear();
  PetscCall(plex_index_vector(section, &idx));
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscCall(plex_cell_closure_by_vec(dm, section, idx, c, &cell));
    if (c == cStart) *width = static_cast<PetscInt>(cell.size()), indices->reserve(cell.size() * static_cast<size_t>(cEnd - cStart));
    PetscCheck(static_cast<PetscInt>(cell.size()) == *width, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "fem_gpu: cell %" PetscInt_FMT " has %zu closure DOFs, cell %" PetscInt_FMT " has %" PetscInt_FMT " (mixed meshes are not supported)", c,
               cell.size(), cStart, *width);
    indices->insert(indices->end(), cell.begin(), cell.end());
  }
  PetscCall(VecDestroy(&idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
