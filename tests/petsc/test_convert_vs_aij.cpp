// MatConvert of a fem_gpu Mat gives, entry by entry, the matrix PETSc assembles from
// independent pointwise Jacobians (pointwise_jacobians.cpp) on the same DM, with the
// essential condition on x = x_min (aij_problem.h), for every degree in -degrees:
//   J = DMPlexSNESComputeJacobianFEM at a smooth linearization point w, a Mat of
//       -convert_type (aij by default) made by DMCreateMatrix;
//   B = MatConvert(A, -convert_type, MAT_INITIAL_MATRIX) must have J's layout (sizes,
//       ownership ranges, block sizes) and nonzero count, MAT_SYMMETRIC known (every
//       shipped form is symmetric), and max_ij |B - J|_ij / max_ij |J_ij| <= -tolerance
//       (the difference by MatAXPY on host AIJ copies);
//   then the form's data changes (hyperelasticity: w scaled by 1.6; elasticity forms:
//       lmbda + 1.1; laplace, mass: nothing), B is zeroed, and MAT_REUSE_MATRIX must give
//       the new J, which must differ from the old one wherever the data changed (or the
//       step would test nothing); last, MAT_INPLACE_MATRIX on a duplicate of A.
// Prints the seconds of PETSc's assembly of J and of both conversions (run on a GPU with
// -convert_type aijcusparse -mat_fem_gpu_backend cuda: values inserted on the device).
// Exit code 1 on a failure; with -expect_mismatch, when the first B equals J (the reuse
// step sets the changed constant on both sides, so it may match).
// -bad KIND makes one bad call, whose error ctest matches: residual (the DM's residual
// Mat of -dm_fem_gpu_form_file, a rank-1 form), type (-convert_type without COO
// assembly, e.g. baij), reuse (MAT_REUSE_MATRIX into J, not made by MatConvert).
#include <petscdmplex.h>
#include <petscsnes.h>
#include <petsctime.h>

#include <string>

#include "aij_problem.h"
#include "femgpu.h"
#include "pointwise_jacobians.h"

static const char help[] = "Compares MatConvert of a fem_gpu Mat with PETSc's assembled Jacobian, entry by entry.\n"
                           "  -form NAME (mass|laplace|helmholtz|elasticity|hyperelasticity) -degrees 1,2,3 -convert_type aij\n"
                           "  -lmbda L -mu M -coordinate_degree 1|2 -mesh_perturb EPS -tolerance T -expect_mismatch -bad residual|type|reuse\n";

namespace {

using femgpu_test::Case;

struct Options {
  Case c;
  char type[64] = "aij", bad[32] = "";
  PetscReal tolerance = 1e-12;
  PetscBool expect_mismatch = PETSC_FALSE;
};

// max_ij |X_ij| of a host AIJ copy of X (X may live on the device).
PetscErrorCode largest_entry(Mat X, PetscReal *largest)
{
  Vec v;
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(X, nullptr, &v));
  PetscCall(MatGetRowMaxAbs(X, v, nullptr));
  PetscCall(VecNorm(v, NORM_INFINITY, largest));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max_ij |B - J|_ij / max_ij |J_ij|, on host AIJ copies.
PetscErrorCode entry_difference(Mat B, Mat J, PetscReal *difference)
{
  Mat Bh, Jh;
  PetscReal scale;
  PetscFunctionBegin;
  PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &Bh));
  PetscCall(MatConvert(J, MATAIJ, MAT_INITIAL_MATRIX, &Jh));
  PetscCall(largest_entry(Jh, &scale));
  PetscCall(MatAXPY(Bh, -1.0, Jh, DIFFERENT_NONZERO_PATTERN));
  PetscCall(largest_entry(Bh, difference));
  *difference = scale > 0 ? *difference / scale : *difference;
  if (!(*difference == *difference)) *difference = PETSC_INFINITY;  // NaN: an entry went wrong
  PetscCall(MatDestroy(&Bh));
  PetscCall(MatDestroy(&Jh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// B has J's layout and nonzero count, and is known to be symmetric: a line per failure.
PetscErrorCode check_structure(Mat B, Mat J, int *failures)
{
  PetscInt b[4], j[4], bs[2], js[2];
  PetscBool set, symmetric;
  MatInfo bi, ji;
  MPI_Comm comm = PetscObjectComm((PetscObject)B);
  PetscFunctionBegin;
  PetscCall(MatGetSize(B, &b[0], &b[1]));
  PetscCall(MatGetOwnershipRange(B, &b[2], &b[3]));
  PetscCall(MatGetSize(J, &j[0], &j[1]));
  PetscCall(MatGetOwnershipRange(J, &j[2], &j[3]));
  PetscCall(MatGetBlockSizes(B, &bs[0], &bs[1]));
  PetscCall(MatGetBlockSizes(J, &js[0], &js[1]));
  PetscCall(MatGetInfo(B, MAT_GLOBAL_SUM, &bi));
  PetscCall(MatGetInfo(J, MAT_GLOBAL_SUM, &ji));
  PetscCall(MatIsSymmetricKnown(B, &set, &symmetric));
  const bool layout = b[0] == j[0] && b[1] == j[1] && b[2] == j[2] && b[3] == j[3] && bs[0] == js[0] && bs[1] == js[1];
  if (!layout)
    PetscCall(PetscPrintf(comm, "  FAIL: the layout differs from PETSc's (block sizes %" PetscInt_FMT ", %" PetscInt_FMT "; PETSc's %" PetscInt_FMT ", %" PetscInt_FMT ")\n",
                          bs[0], bs[1], js[0], js[1]));
  if (bi.nz_used != ji.nz_used) PetscCall(PetscPrintf(comm, "  FAIL: %.0f nonzeros; PETSc's matrix has %.0f\n", bi.nz_used, ji.nz_used));
  if (!set || !symmetric) PetscCall(PetscPrintf(comm, "  FAIL: not flagged symmetric\n"));
  *failures += !layout + (bi.nz_used != ji.nz_used) + (!set || !symmetric);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// New data for the reuse step; *changed says whether the matrix should change.
PetscErrorCode change_data(DM dm, const Case &c, Mat A, Vec w, bool *changed)
{
  PetscDS ds;
  PetscFunctionBegin;
  *changed = true;
  if (c.form == "hyperelasticity") PetscCall(femgpu_test::project_linearization_point(dm, 1.6, w));  // A reads w again
  else if (femgpu_test::is_vector_form(c.form)) {
    PetscCall(MatFEMGPUSetConstant(A, "lmbda", c.lmbda + 1.1));
    PetscCall(DMGetDS(dm, &ds));
    PetscCall(femgpu_test::set_pointwise_jacobian(ds, c.form, c.lmbda + 1.1, c.mu));
  } else *changed = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PETSc's assembly of J at w, timed.
PetscErrorCode assemble_petsc(DM dm, Vec w, Mat J, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(MatZeroEntries(J));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, w, J, J, nullptr));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode convert_timed(Mat A, MatType type, MatReuse reuse, Mat *B, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(MatConvert(A, type, reuse, B));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Result {
  PetscReal initial = 0, reused = 0, inplace = 0, change = 0;  // relative entry differences
  PetscLogDouble petsc_s = 0, initial_s = 0, reuse_s = 0;
  PetscInt size = 0;
};

// The reuse step: new data, B zeroed, MAT_REUSE_MATRIX; then MAT_INPLACE_MATRIX on a
// duplicate of A. r->change is |J_new - J_old| (0 when the data did not change).
PetscErrorCode reuse_and_inplace(DM dm, const Options &o, Mat A, Vec w, Mat J, Mat B, Result *r, int *failures)
{
  Mat J_old, D;
  bool changed;
  PetscFunctionBegin;
  PetscCall(MatDuplicate(J, MAT_COPY_VALUES, &J_old));
  PetscLogDouble again_s;
  PetscCall(change_data(dm, o.c, A, w, &changed));
  PetscCall(assemble_petsc(dm, w, J, &again_s));
  PetscCall(entry_difference(J, J_old, &r->change));
  if (changed && !(r->change > 1e-3)) {
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "  FAIL: the new data left PETSc's matrix unchanged (%g)\n", (double)r->change));
    ++*failures;
  }
  PetscCall(MatZeroEntries(B));
  PetscCall(convert_timed(A, o.type, MAT_REUSE_MATRIX, &B, &r->reuse_s));
  PetscCall(entry_difference(B, J, &r->reused));
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &D));
  PetscCall(MatConvert(D, o.type, MAT_INPLACE_MATRIX, &D));
  PetscCall(entry_difference(D, J, &r->inplace));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&J_old));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode compare(MPI_Comm comm, const Options &o, Result *r, int *failures)
{
  DM dm;
  Mat J, A, B;
  Vec w;
  PetscFunctionBegin;
  PetscCall(femgpu_test::create_problem(comm, o.c, &dm));
  PetscCall(DMCreateLocalVector(dm, &w));
  PetscCall(femgpu_test::project_linearization_point(dm, 1.0, w));
  PetscCall(DMSetMatType(dm, o.type));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(MatGetSize(J, &r->size, nullptr));
  PetscCall(assemble_petsc(dm, w, J, &r->petsc_s));
  PetscCall(femgpu_test::create_fem_gpu(dm, o.c, w, &A));
  PetscCall(convert_timed(A, o.type, MAT_INITIAL_MATRIX, &B, &r->initial_s));
  PetscCall(check_structure(B, J, failures));
  PetscCall(entry_difference(B, J, &r->initial));
  PetscCall(reuse_and_inplace(dm, o, A, w, J, B, r, failures));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The DM's residual Mat (rank-1 form) of -dm_fem_gpu_form_file, made by SNES's options
// checker, converted: an error.
PetscErrorCode convert_residual(MPI_Comm comm, const Options &o)
{
  DM dm;
  SNES snes;
  Mat R = nullptr, B;
  PetscFunctionBegin;
  PetscCall(femgpu_test::create_problem(comm, o.c, &dm));
  PetscCall(SNESCreate(comm, &snes));
  PetscCall(SNESSetDM(snes, dm));
#if PETSC_VERSION_LT(3, 21, 0)
  PetscCall(DMPlexSetSNESLocalFEM(dm, nullptr, nullptr, nullptr));
#else
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, nullptr));
#endif
  PetscCall(PetscOptionsSetValue(nullptr, "-dm_fem_gpu_form_file", (o.c.forms_dir + "/" + o.c.form + ".ufl").c_str()));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(PetscObjectQuery((PetscObject)dm, "femgpu_residual", (PetscObject *)&R));  // snes_residual.cpp's key
  PetscCheck(R, comm, PETSC_ERR_PLIB, "the DM has no femgpu residual Mat");
  PetscCall(MatConvert(R, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatDestroy(&B));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -bad type and reuse: MatConvert to a type without COO, or reusing PETSc's own J.
PetscErrorCode convert_badly(MPI_Comm comm, const Options &o)
{
  DM dm;
  Mat J, A, B = nullptr;
  Vec w;
  const std::string bad = o.bad;
  PetscFunctionBegin;
  if (bad == "residual") {
    PetscCall(convert_residual(comm, o));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(bad == "type" || bad == "reuse", comm, PETSC_ERR_ARG_WRONG, "unknown -bad %s (residual, type, reuse)", o.bad);
  PetscCall(femgpu_test::create_problem(comm, o.c, &dm));
  PetscCall(DMCreateLocalVector(dm, &w));
  PetscCall(femgpu_test::project_linearization_point(dm, 1.0, w));
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(femgpu_test::create_fem_gpu(dm, o.c, w, &A));
  if (bad == "type") PetscCall(MatConvert(A, o.type, MAT_INITIAL_MATRIX, &B));
  else PetscCall(MatConvert(A, MATAIJ, MAT_REUSE_MATRIX, &J));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&w));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode read_options(MPI_Comm comm, Options *o, PetscInt degrees[], PetscInt *n_degrees)
{
  char form[64] = "laplace", dir[PETSC_MAX_PATH_LEN] = FEMGPU_FORMS_DIR;
  Case &c = o->c;
  PetscFunctionBegin;
  PetscOptionsBegin(comm, "", "MatConvert vs AIJ options", "");
  PetscCall(PetscOptionsString("-form", "Shipped form name", "", form, form, sizeof(form), nullptr));
  PetscCall(PetscOptionsString("-forms_dir", "Folder of the form files", "", dir, dir, sizeof(dir), nullptr));
  PetscCall(PetscOptionsIntArray("-degrees", "Lagrange degrees to test", "", degrees, n_degrees, nullptr));
  PetscCall(PetscOptionsString("-convert_type", "Assembled Mat type (MatConvert's and PETSc's)", "", o->type, o->type, sizeof(o->type), nullptr));
  PetscCall(PetscOptionsString("-bad", "One bad MatConvert: residual, type, reuse", "", o->bad, o->bad, sizeof(o->bad), nullptr));
  PetscCall(PetscOptionsReal("-lmbda", "Lame lambda (both sides)", "", c.lmbda, &c.lmbda, nullptr));
  PetscCall(PetscOptionsReal("-mu", "Lame mu (both sides)", "", c.mu, &c.mu, nullptr));
  PetscCall(PetscOptionsInt("-coordinate_degree", "Coordinate degree", "", c.coordinate_degree, &c.coordinate_degree, nullptr));
  PetscCall(PetscOptionsReal("-mesh_perturb", "Interior node perturbation", "", c.perturb, &c.perturb, nullptr));
  PetscCall(PetscOptionsInt("-mat_fem_gpu_quadrature_degree", "Shared rule degree on curved cells", "", c.quadrature_degree, &c.quadrature_degree, nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "Relative tolerance", "", o->tolerance, &o->tolerance, nullptr));
  PetscCall(PetscOptionsBool("-expect_mismatch", "Pass only if the matrices differ", "", o->expect_mismatch, &o->expect_mismatch, nullptr));
  PetscOptionsEnd();
  PetscCheck(c.coordinate_degree == 1 || c.quadrature_degree > 0, comm, PETSC_ERR_USER_INPUT, "curved cells need -mat_fem_gpu_quadrature_degree");
  c.form = form;
  c.forms_dir = dir;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run(MPI_Comm comm, int *failures)
{
  Options o;
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8;
  PetscFunctionBegin;
  PetscCall(read_options(comm, &o, degrees, &n_degrees));
  if (o.bad[0]) {
    PetscCall(convert_badly(comm, o));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < n_degrees; ++i) {
    Result r;
    o.c.degree = degrees[i];
    PetscCall(compare(comm, o, &r, failures));
    const PetscReal worst = PetscMax(r.initial, PetscMax(r.reused, r.inplace));
    const bool ok = o.expect_mismatch ? r.initial > 1e3 * o.tolerance : worst <= o.tolerance;
    *failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(comm,
                          "%s P%" PetscInt_FMT " (%" PetscInt_FMT " free DOFs) to %s: max|B - J|/max|J| initial %.3e, reuse %.3e (data changed by %.3e), "
                          "in place %.3e  %s\n",
                          o.c.form.c_str(), o.c.degree, r.size, o.type, (double)r.initial, (double)r.reused, (double)r.change, (double)r.inplace,
                          ok ? "ok" : (o.expect_mismatch ? "FAIL (expected a mismatch)" : "FAIL")));
    PetscCall(PetscPrintf(comm, "  seconds: PETSc's assembly %.3g, MatConvert initial %.3g, reuse %.3g\n", r.petsc_s, r.initial_s, r.reuse_s));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  int failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(run(PETSC_COMM_WORLD, &failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
