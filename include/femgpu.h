/* femgpu: matrix-free finite-element operators from UFL forms, as a PETSc Mat type.

   A `fem_gpu` matrix applies the action of the bilinear form a(u, v) of a form file
   (or the Jacobian of its residual F) on the DMPlex it is attached to: one field, or
   several with a bilinear form on their MixedElement (then MatMult, MatGetDiagonal and
   MatCreateSubMatrix of the fields' blocks, for PCFIELDSPLIT: docs/petsc.md).
   Use it wherever PETSc creates a matrix from a DM:

       -dm_mat_type fem_gpu -mat_fem_gpu_form_file laplace.ufl

   or create it explicitly:

       MatCreate(comm, &A); MatSetSizes(...); MatSetType(A, MATFEMGPU); MatSetDM(A, dm);
       MatFEMGPUSetFormFile(A, "laplace.ufl");

   Every function returns a PetscErrorCode and is collective on the Mat. */
#ifndef FEMGPU_H
#define FEMGPU_H

#include <petscdm.h>
#include <petscmat.h>

#define MATFEMGPU "fem_gpu"

/* Registers MATFEMGPU with MatRegister(); safe to call more than once. Loading the
   shared library with -dll_append .../libfemgpu.so calls it too. */
PETSC_EXTERN PetscErrorCode MatFEMGPURegister(void);

/* The form: UFL text (source_name appears in error messages) or a file. */
PETSC_EXTERN PetscErrorCode MatFEMGPUSetForm(Mat A, const char form_text[], const char source_name[]);
PETSC_EXTERN PetscErrorCode MatFEMGPUSetFormFile(Mat A, const char path[]);

/* A named Coefficient of the form (e.g. the linearization point "w"). The Vec is a
   global Vec of the Mat's DM or a local one (ghosted, including constrained DOFs); for a
   coefficient in its own element (another degree, DG0), a global or local Vec of a DM on
   the same mesh whose field (or field named after the coefficient) has that element. It
   is referenced, and its values are read again whenever they change. A coefficient with
   no Vec is read from the DM's auxiliary vector (DMSetAuxiliaryVec): the field whose
   PetscFE has its name, or the only field for a form with one coefficient. */
PETSC_EXTERN PetscErrorCode MatFEMGPUSetCoefficient(Mat A, const char name[], Vec w);

/* Applies femgpu's DM options to dm, as SNESSetFromOptions does for a SNES program:
   -dm_fem_gpu_form_file F.ufl replaces the DM's PETSc local residual
   (DMPlexSNESComputeResidualFEM, set by DMPlexSetSNESLocalFEM) by the kernel of the
   file's residual F (or a - L). For programs that evaluate the DM's local residual
   themselves (DMSNESGetFunctionLocal), e.g. a KSP program's right-hand side. Without the
   option it does nothing. */
PETSC_EXTERN PetscErrorCode FEMGPUDMSetFromOptions(DM dm);

/* A named Constant of the form; overrides its default value. */
PETSC_EXTERN PetscErrorCode MatFEMGPUSetConstant(Mat A, const char name[], PetscReal value);

/* Sizes of the lowered operator, for reports: quadrature points, evaluations per point
   (sum of N_deriv), N_eval, and FLOPs per cell as the paper counts them. */
PETSC_EXTERN PetscErrorCode MatFEMGPUGetInfo(Mat A, PetscInt *n_quadrature_points, PetscInt *n_evaluations,
                                             PetscInt *n_eval, PetscLogDouble *flops_per_cell);

/* The backend the action runs on once set up ("cpu", ...); sets the Mat up if needed.
   The string belongs to the Mat. */
PETSC_EXTERN PetscErrorCode MatFEMGPUGetBackend(Mat A, const char **name);

/* Memory in use on the GPU this rank works on, in MiB, the maximum over the ranks of
   comm (the whole device's use, CUDA contexts included, as nvidia-smi counts it); -1
   without a CUDA device. Examples print it after a solve to compare matrix types. */
PETSC_EXTERN PetscErrorCode FEMGPUDeviceMemoryInUse(MPI_Comm comm, PetscReal *mib);

/* Meshes. A structured simplex box: faces[d] intervals per direction, 2 triangles per
   square or 6 (Kuhn) tetrahedra per cube, distributed by DMSetFromOptions. It needs no
   mesh generator, which many PETSc builds lack. */
PETSC_EXTERN PetscErrorCode FEMGPUCreateBoxMesh(MPI_Comm comm, PetscInt dim, const PetscInt faces[], const PetscReal lower[],
                                                const PetscReal upper[], DM *dm);
/* The mesh the usual options describe: -dm_plex_filename FILE (Gmsh, ...), a tensor box
   with -dm_plex_simplex 0, or otherwise the simplex box of -dm_plex_dim,
   -dm_plex_box_faces, -dm_plex_box_lower, -dm_plex_box_upper; then DMSetFromOptions. */
PETSC_EXTERN PetscErrorCode FEMGPUCreateMeshFromOptions(MPI_Comm comm, DM *dm);

#endif
