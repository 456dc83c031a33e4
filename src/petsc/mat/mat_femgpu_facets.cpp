// Exterior facet integrals (ds) of a fem_gpu Mat: one operator per ds domain and local
// facet f, each a cell operator (lower.h) on the cells whose facet f is on that boundary.
//
// Takes: the context after lowering and the closure maps of every cell.
// Returns: ctx->op.facets (their IR, tables, cells, maps and backends), and for a form
// without dx integrals the Mat's own operator (its first ds domain on facet 0) cut to its
// cells. MatMult and MatGetDiagonal add the parts' contributions on the host path, and
// the GPU-resident MatMult (mat_femgpu_device.cpp) launches them after the operator;
// MatConvert appends their cell matrices (MatFEMGPUCellMatrices, on the host).
// Does not: tune them (they run the default SCPWI schedule, surface-sized work).
#include "fem/action_tables.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_facets.h"
#include "petsc/plex/boundary_facets.h"

namespace femgpu {

namespace {

// The cells of each local facet for one ds domain, its label value checked.
PetscErrorCode domain_cells(MatFEMGPUContext *ctx, const IntegralDomain &d, std::vector<std::vector<PetscInt>> *cells)
{
  std::string label;
  PetscFunctionBegin;
  PetscCall(boundary_label_name(ctx->op.dm, ctx->options.boundary_label, &label));
  if (d.subdomain) PetscCall(check_boundary_label_value(ctx->op.dm, label, *d.subdomain));
  PetscCall(boundary_facet_cells(ctx->op.dm, label, d.subdomain, cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode add_part(Mat A, MatFEMGPUContext *ctx, const LowerOptions &lower, const IntegralDomain &d, int f, const PlexMaps &all,
                        const std::vector<PetscInt> &cells)
{
  PetscFunctionBegin;
  FacetPart part;
  part.domain = d;
  part.facet = f;
  LowerOptions lo = lower;
  lo.domain = d;
  lo.facet = f;
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), {
    part.ir = std::make_unique<ActionIR>(lower_form(*ctx->op.form, lo));
    part.tab = std::make_unique<Tabulation>(tabulate_action(*part.ir, default_share_dir()));
  });
  part.cells = cells;
  part.maps = subset_maps(all, cells);
  ctx->op.facets.push_back(std::move(part));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetUpFacets(Mat A, MatFEMGPUContext *ctx, const LowerOptions &lower)
{
  PetscFunctionBegin;
  ctx->op.facets.clear();
  ctx->op.cells.clear();
  ctx->op.dm_maps = ctx->op.shared_maps;
  for (const IntegralDomain &d : integral_domains(*ctx->op.form)) {
    if (d.type != IntegralDomain::Type::ExteriorFacet) continue;
    std::vector<std::vector<PetscInt>> cells;
    PetscCall(domain_cells(ctx, d, &cells));
    for (int f = 0; f < static_cast<int>(cells.size()); ++f) {
      const bool main = ctx->op.on_facets && d == ctx->op.ir->domain && f == ctx->op.ir->facet;
      if (!main) PetscCall(add_part(A, ctx, lower, d, f, ctx->op.maps(), cells[static_cast<size_t>(f)]));
      else ctx->op.cells = cells[static_cast<size_t>(f)];
    }
  }
  // The Mat's own operator on facets: its own maps, cut from the DM's shared ones.
  if (ctx->op.on_facets) ctx->op.shared_maps = std::make_shared<const PlexMaps>(subset_maps(ctx->op.maps(), ctx->op.cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUMakeFacetBackends(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  const std::string kind = ctx->device.backend->name();
  const Schedule scpwi = Schedule::single_cell_per_work_item(32, MatFEMGPURequestedPrecision(ctx->options.schedule));
  for (FacetPart &p : ctx->op.facets) {
    p.backend.reset();
    if (p.cells.empty()) continue;
    FEMGPU_CXX(comm, {
      if (kind == "opencl") p.backend = make_opencl_backend(*p.ir, *p.tab, scpwi);
#ifdef FEMGPU_HAVE_CUDA
      else if (kind == "cuda") p.backend = make_cuda_backend(*p.ir, *p.tab, scpwi, ctx->device.cuda_ordinal);
#endif
      else p.backend = make_reference_backend(*p.ir, *p.tab);
    });
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUApplyFacets(Mat A, MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, PetscScalar *out, bool diagonal)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  for (FacetPart &p : ctx->op.facets) {
    if (!p.backend) continue;
    ActionArrays arrays;
    PetscCall(MatFEMGPUFillOperatorArrays(ctx, *p.ir, p.maps, p.cells, &p.coefficient_maps, trial, coords, true, &arrays));
    const size_t n_out = static_cast<size_t>(p.maps.local_size);
    if (diagonal) FEMGPU_CXX(comm, p.backend->diagonal(arrays, n_out, out));
    else FEMGPU_CXX(comm, p.backend->apply(arrays, n_out, out));
    if (!diagonal) PetscCall(PetscLogFlops(static_cast<PetscLogDouble>(count_flops(*p.ir, p.tab->n_points()).total()) * static_cast<PetscLogDouble>(p.maps.n_cells)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUCellMatrices(Mat A, MatFEMGPUContext *ctx, const PetscScalar *coords, std::vector<PetscScalar> *values)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  ActionArrays arrays;
  PetscFunctionBegin;
  const size_t w = static_cast<size_t>(ctx->op.maps().width);
  values->assign(static_cast<size_t>(ctx->op.maps().n_cells) * w * w, 0.0);
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, coords, true, &arrays));
  // host_assembly (after a device failure): the base class's, the CPU reference.
  auto cell_matrices = [&](ActionBackend &b, double *out) {
    if (ctx->host_assembly) b.ActionBackend::cell_matrices(arrays, out);
    else b.cell_matrices(arrays, out);
  };
  if (!values->empty()) FEMGPU_CXX(comm, cell_matrices(*ctx->device.backend, values->data()));
  for (FacetPart &p : ctx->op.facets) {
    if (!p.backend) continue;
    const size_t start = values->size();
    values->resize(start + static_cast<size_t>(p.maps.n_cells) * w * w);
    PetscCall(MatFEMGPUFillOperatorArrays(ctx, *p.ir, p.maps, p.cells, &p.coefficient_maps, nullptr, coords, true, &arrays));
    FEMGPU_CXX(comm, cell_matrices(*p.backend, values->data() + start));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::string MatFEMGPUDescribeFacets(const MatFEMGPUContext *ctx)
{
  std::string s;
  if (ctx->op.on_facets)
    s += "  exterior facets " + describe_domain(ctx->op.ir->domain) + ", local facet " + std::to_string(ctx->op.ir->facet) +
         " (the operator above): " + std::to_string(ctx->op.cells.size()) + " cells on this rank\n";
  for (const FacetPart &p : ctx->op.facets)
    s += "  exterior facets " + describe_domain(p.domain) + ", local facet " + std::to_string(p.facet) + ": " + std::to_string(p.cells.size()) +
         " cells on this rank, Q = " + std::to_string(p.tab->n_points()) + " (" + p.tab->rule.family + "), " +
         (p.backend ? p.backend->name() + " " + p.backend->schedule() + " (untuned)" : std::string("no backend (no such cell here)")) + "\n";
  return s;
}

}  // namespace femgpu
