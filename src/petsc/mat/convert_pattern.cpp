// MatConvert's COO pattern of a fem_gpu Mat (convert_pattern.h): the closure maps of its
// cells and facet parts, numbered globally by the DM's local-to-global map.
#include "petsc/mat/convert_pattern.h"

#include <cstdint>
#include <numeric>

#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"

namespace femgpu {

PetscErrorCode convert_pattern_source(MatFEMGPUContext *ctx, ConvertPattern *pattern)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)ctx->op.dm, &pattern->dm));
  pattern->n_cells = ctx->op.maps().n_cells;
  pattern->width = ctx->op.maps().width;
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

// The global index of each local-vector index (negative for constrained ones, which the
// pattern leaves out). On one rank the DM's maps hold it (PlexMaps::global_of_local), so the
// DM's ISLocalToGlobalMapping is not built: PETSc builds it with calls per point of the
// mesh (0.076 s on one core for the P1 level of 843k tetrahedra). On several ranks, that map.
PetscErrorCode global_of_local(MatFEMGPUContext *ctx, std::vector<PetscInt> *global)
{
  const IndexArray &held = ctx->op.mesh_maps().global_of_local;
  const PetscInt n = ctx->op.maps().local_size;
  PetscFunctionBegin;
  if (!held.empty()) {
    PetscCheck(static_cast<PetscInt>(held.size()) == n, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "MatConvert of a fem_gpu Mat: the DM's maps do not match the operator's local vector");
    global->assign(held.begin(), held.end());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ISLocalToGlobalMapping ltog;
  global->resize(static_cast<size_t>(n));
  std::iota(global->begin(), global->end(), PetscInt(0));
  PetscCall(DMGetLocalToGlobalMapping(ctx->op.dm, &ltog));
  if (n > 0) PetscCall(ISLocalToGlobalMappingApply(ltog, n, global->data(), global->data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode convert_pattern_build(MatFEMGPUContext *ctx, ConvertPattern *pattern)
{
  std::vector<CooBlock> blocks;
  PetscFunctionBegin;
  PetscCall(convert_pattern_source(ctx, pattern));
  const PlexMaps &maps = ctx->op.maps();
  blocks.push_back({maps.free.data(), maps.n_cells, maps.width});
  for (const FacetPart &p : ctx->op.facets) blocks.push_back({p.maps.free.data(), p.maps.n_cells, p.maps.width});
  std::vector<PetscInt> global;  // global index of each local-vector index
  PetscCall(global_of_local(ctx, &global));
  PetscCall(coo_pattern_build(blocks, maps.local_size, global.data(), &pattern->coo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode convert_pattern_sum_host(const ConvertPattern &pattern, const std::vector<PetscScalar> &cells, PetscScalar *unique)
{
  PetscFunctionBegin;
  PetscCheck(static_cast<PetscCount>(cells.size()) == pattern.coo.n_entries, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "MatConvert of a fem_gpu Mat: %zu cell-matrix values for a COO pattern of %" PetscCount_FMT " entries", cells.size(),
             pattern.coo.n_entries);
  coo_pattern_sum(pattern.coo, cells.data(), unique);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode convert_pattern_sum_device(MPI_Comm comm, ConvertPattern *pattern, int ordinal, unsigned long long cells, unsigned long long into,
                                          unsigned long long *unique)
{
  PetscFunctionBegin;
  static_assert(sizeof(PetscCount) == sizeof(std::int64_t), "jmap goes to the device as 64-bit integers");
  static_assert(sizeof(int) == sizeof(std::int32_t), "perm goes to the device as 32-bit integers");
#ifdef FEMGPU_HAVE_CUDA
  const CooPattern &coo = pattern->coo;
  if (!pattern->device)
    FEMGPU_CXX(comm, pattern->device = make_cuda_entry_sum(reinterpret_cast<const std::int64_t *>(coo.jmap.data()), static_cast<size_t>(coo.n_unique()),
                                                           reinterpret_cast<const std::int32_t *>(coo.perm.data()), ordinal));
  if (into) {
    FEMGPU_CXX(comm, pattern->device->sum_into(cells, into));
    *unique = into;
  } else {
    FEMGPU_CXX(comm, *unique = pattern->device->sum(cells));
  }
#else
  (void)pattern, (void)ordinal, (void)cells, (void)into, (void)unique;
  SETERRQ(comm, PETSC_ERR_SUP, "MatConvert of a fem_gpu Mat: device values without the CUDA backend in this build");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
