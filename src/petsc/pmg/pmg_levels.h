// The operators of the p-multigrid levels below the fine one (pc_femgpu_pmg.cpp).
//
// Takes: the fine fem_gpu Mat (set up) and a lower degree. Returns: a DM on the same mesh
// whose single field is the fine field at that degree, with the same essential boundary
// conditions (PETSc's own DS boundaries, so constrained DOFs sit where the fine level
// has them; its section derived from the fine one's where PETSc would lay it out the same,
// level_section.h, and its maps taking the mesh's parts from the fine maps), and the fem_gpu Mat of the same form on it: same form text, constants,
// MatScale/MatShift edits, backend and options prefix, its own closure maps and tuned kernel. The form's
// coefficients are bound to local Vecs of the level's DM, which the PC fills from the
// level above (PMGInject) before each setup.
// Does not: build transfers (pmg_transfer.h) or know PCMG.
#pragma once

#include <petscdm.h>
#include <petscmat.h>
#include <petscksp.h>
#include <petscpc.h>

#include <string>
#include <utility>
#include <vector>

namespace femgpu {

// The levels' degrees, coarsest first, from 1 up to the operator's `degree`: halving
// rounded up, or `requested` (-pc_fem_gpu_pmg_degrees, below the operator's, descending,
// ending at 1; errors name the option).
PetscErrorCode PMGLadder(PC pc, const std::vector<PetscInt> &requested, PetscInt degree, std::vector<PetscInt> *out);

PetscErrorCode PMGCreateLevelDM(DM fine, PetscInt degree, DM *level);

// After PCMG's setup with FP32 levels (degrees: the levels', coarsest first; those between
// the coarsest and the operator's are FP32): an error naming the first whose operator lost
// definiteness in FP32, as its Chebyshev smoother's eigenvalue estimate (CG by default)
// breaking down shows it. Chebyshev would take the estimates anyway and the smoother would
// be wrong without a word.
PetscErrorCode PMGCheckFP32Levels(PC pc, const std::vector<PetscInt> &degrees);

// A level's smoother before PCMG reads its options (which override): Chebyshev with
// Jacobi, its eigenvalues estimated by CG for a symmetric form (GMRES otherwise).
PetscErrorCode PMGSetSmootherDefaults(KSP smoother, bool symmetric);

// PMGCreateLevelDM's DM before its section: the clone with the level's field, the fine
// DS's boundaries and the fine DM's Vec type; PETSc builds its section when asked
// (test_level_section compares that build with the derived one).
PetscErrorCode PMGCloneLevelDM(DM fine, PetscInt degree, DM *level);

// precision: "fp64" or "fp32", the level's kernel (its diagonal stays FP64).
// coefficients: the level's Vecs, by coefficient name (owned by the caller).
// backend: "" for the fine Mat's, or another ("cpu": the level on the host).
PetscErrorCode PMGCreateLevelMat(Mat fine, DM level_dm, const std::string &precision, Mat *level,
                                 std::vector<std::pair<std::string, Vec>> *coefficients, const std::string &backend = "");

// Gives `level` the constants set on `fine` (MatFEMGPUSetConstant, as TS binds its shift
// and time): at a level's creation and at every setup of the p-multigrid.
PetscErrorCode PMGCopyConstants(Mat fine, Mat level);

// Gives `level` the MatScale and MatShift calls made on `fine` since its last final
// assembly (its shell edits), after clearing the level's own (a final assembly): the
// level applies s A_level + t I where the fine Mat applies s A + t I, and its assembled
// copy (the coarse matrix) holds the same. An edit that has no meaning on another space
// (MatDiagonalScale, MatDiagonalSet, MatAXPY, MatZeroRows...) is not carried: *dropped
// names the first such edit (empty when all were carried), for the PC's PetscInfo line.
PetscErrorCode PMGCopyEdits(Mat fine, Mat level, std::string *dropped);

}  // namespace femgpu
