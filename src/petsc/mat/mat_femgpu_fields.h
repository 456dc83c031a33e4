// A fem_gpu Mat over a DM with several fields (DMAddField per field, e.g. Taylor-Hood
// P2^d x P1 Stokes): the form is on the MixedElement of those fields, and the Mat is the
// sum of its blocks A_ij (test field i, trial field j; mixed_blocks.h).
//
// Each field has the sub-DM and global index set DMCreateSubDM gives (the ones
// PCFIELDSPLIT's DMCreateFieldDecomposition gives too). A nonzero diagonal block is an
// ordinary fem_gpu Mat on field i's sub-DM (tuning, every schedule, MatGetDiagonal,
// -pc_type fem_gpu_pmg). A nonzero off-diagonal block is a MATSHELL of field i's rows and
// field j's columns around a residual-mode fem_gpu Mat on field i's sub-DM whose
// coefficient (the trial part, in field j's element) is bound to x_j: its residual is
// A_ij x_j. Zero blocks are absent; MatCreateSubMatrix gives a MATSHELL of zeros for one.
//
// MatMult: y_i = sum_j A_ij x_j through VecGetSubVector; MatGetDiagonal: the diagonal
// blocks' diagonals; MatCreateSubMatrix(A, IS_i, IS_j): block (i, j) (referenced);
// MatDuplicate (the single-field one) gives a Mat of the same form that makes its own blocks.
// Everything else the single-field Mat has (transpose, MatConvert, symmetry, p-multigrid
// on the whole Mat, SNES residual and Jacobian) is refused by MatFEMGPUSetUp's check.
// Options and constants of the Mat (its prefix) go to every block.
// Does not: take an off-diagonal block whose two fields have the same element (its
// coefficient binding could not tell field j's layout from field i's: refused), or a
// residual F on a mixed element, or coefficients on mixed elements.
// This file (mat_femgpu_fields.cpp): the blocks, made at the first use; their operations
// are mat_femgpu_fields_ops.h's.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

#include <vector>

#include "form/form.h"

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

struct FieldBlocks {
  std::vector<DM> dms;            // per field: DMCreateSubDM's sub-DM
  std::vector<IS> is;             // per field: its global index set
  std::vector<Element> elements;  // per field
  CellType cell = CellType::Triangle;
  std::vector<Mat> blocks;        // n_fields^2, row-major; null: a zero block
  PetscInt n_fields() const { return static_cast<PetscInt>(dms.size()); }
  Mat block(PetscInt i, PetscInt j) const { return blocks[static_cast<size_t>(i * n_fields() + j)]; }
};

PetscErrorCode FieldBlocksDestroy(FieldBlocks *f);

// *multi: whether A's DM has several fields; if so, the blocks are made (once).
PetscErrorCode MatFEMGPUSetUpFields(Mat A, MatFEMGPUContext *ctx, bool *multi);

}  // namespace femgpu
