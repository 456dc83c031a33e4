// Exterior facet operators (mat_femgpu_facets.cpp): the ds integrals of a form, each a
// cell operator on the boundary cells of its domain and facet (FacetPart, mat_context.h).
#pragma once

#include <petscmat.h>

#include <string>
#include <vector>

#include "ir/lower.h"

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// At setup, after the maps (every cell's) and before the backend, the parts of the
// form's ds integrals, and for a form without dx integrals the Mat's own operator cut to
// its cells; then their backends.
PetscErrorCode MatFEMGPUSetUpFacets(Mat A, MatFEMGPUContext *ctx, const LowerOptions &lower);
PetscErrorCode MatFEMGPUMakeFacetBackends(Mat A, MatFEMGPUContext *ctx);
// out (local) += the facet parts' action (diagonal: false) or diagonal (true).
PetscErrorCode MatFEMGPUApplyFacets(Mat A, MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, PetscScalar *out, bool diagonal);
// Every cell matrix on the host, in coo_indices()'s order: the Mat's operator's cells,
// then each facet part's (mat_femgpu_assembly.cpp's host path).
PetscErrorCode MatFEMGPUCellMatrices(Mat A, MatFEMGPUContext *ctx, const PetscScalar *coords, std::vector<PetscScalar> *values);
// MatView's lines about the facet parts ("" without ds integrals).
std::string MatFEMGPUDescribeFacets(const MatFEMGPUContext *ctx);

}  // namespace femgpu
