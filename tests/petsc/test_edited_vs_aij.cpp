// A fem_gpu Mat changed by MatScale, MatShift (TS's shift * M + J), MatDiagonalScale,
// MatDiagonalSet, MatAXPY and MatZeroRowsColumns is, in every operation and every copy,
// PETSc's assembled matrix changed by the same calls (aij_problem.h: the form's Jacobian
// from independent pointwise functions, the left side fixed):
//   - MatMult, MatMultAdd, MatMultTranspose, MatMultTransposeAdd and MatGetDiagonal on
//     random vectors (every shipped form is symmetric, so the transposes exist), to 100
//     times -tolerance (MATSHELL's own arithmetic cancels, see compare());
//   - MatConvert (MAT_INITIAL_MATRIX, then MAT_REUSE_MATRIX after one more edit), entry by
//     entry: max |B - J| / max |J| <= -tolerance;
//   - MatDuplicate(MAT_COPY_VALUES) and MatCopy into another fem_gpu Mat, converted;
//   - MatCopy into PETSc's AIJ of the DM (its own pattern) and, with
//     DIFFERENT_NONZERO_PATTERN, into an AIJ holding the diagonal only;
//   - after MatAssemblyEnd, which drops the edits as MATSHELL does, the unedited operator.
// Each step is applied to both in the same order. MatAXPY adds the mass matrix: a
// fem_gpu one on the same DM, PETSc's on an identical mesh (a vector form: elasticity
// with lmbda = 0, mu = 0.25, an operator of the same pattern). Exit code 1 on a failure.
// -bad copy: MatCopy(SAME_NONZERO_PATTERN) into a diagonal AIJ (an error ctest matches).
// -hypre: the unedited operator solved with -solve_ prefixed KSP options (e.g.
// -solve_pc_type hypre) against PETSc's LU of its AIJ.
#include <petscdmplex.h>
#include <petscsnes.h>

#include <functional>
#include <string>
#include <vector>

#include "aij_problem.h"
#include "femgpu.h"
#include "pointwise_jacobians.h"
#include "solve_both.h"
#include "vec_difference.h"

static const char help[] = "Compares a scaled, shifted ... fem_gpu Mat and its copies with PETSc's AIJ changed the same way.\n"
                           "  -form laplace|elasticity|... -degree K -tolerance T -bad copy -hypre\n";

namespace {

using femgpu_test::Case;

int failures = 0;

PetscErrorCode expect(MPI_Comm comm, bool ok, const std::string &what, PetscReal value)
{
  PetscFunctionBegin;
  failures += ok ? 0 : 1;
  PetscCall(PetscPrintf(comm, "%s: %.3e %s\n", what.c_str(), (double)value, ok ? "ok" : "FAIL"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max_ij |B - J|_ij / max_ij |J_ij| on host AIJ copies.
PetscErrorCode entry_difference(Mat B, Mat J, PetscReal *difference)
{
  Mat Bh, Jh;
  Vec v;
  PetscReal scale;
  PetscFunctionBegin;
  PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &Bh));
  PetscCall(MatConvert(J, MATAIJ, MAT_INITIAL_MATRIX, &Jh));
  PetscCall(MatCreateVecs(Jh, nullptr, &v));
  PetscCall(MatGetRowMaxAbs(Jh, v, nullptr));
  PetscCall(VecNorm(v, NORM_INFINITY, &scale));
  PetscCall(MatAXPY(Bh, -1.0, Jh, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatGetRowMaxAbs(Bh, v, nullptr));
  PetscCall(VecNorm(v, NORM_INFINITY, difference));
  *difference = scale > 0 ? *difference / scale : *difference;
  if (!(*difference == *difference)) *difference = PETSC_INFINITY;
  PetscCall(VecDestroy(&v));
  PetscCall(MatDestroy(&Bh));
  PetscCall(MatDestroy(&Jh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Problem {
  DM dm = nullptr, mass_dm = nullptr;
  Mat A = nullptr, J = nullptr;        // the operator: fem_gpu, PETSc's AIJ
  Mat M = nullptr, M_aij = nullptr;    // the mass matrix: fem_gpu on dm, PETSc's on mass_dm
  Vec w = nullptr;
};

// PETSc's Jacobian of `dm`'s PetscDS at w (local), as a new AIJ of the DM.
PetscErrorCode assemble_petsc(DM dm, Vec w, Mat *J)
{
  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, J));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, w, *J, *J, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode create(MPI_Comm comm, const Case &c, Problem *p)
{
  Case mass = c;
  Vec mass_w;
  PetscFunctionBegin;
  PetscCall(femgpu_test::create_problem(comm, c, &p->dm));
  PetscCall(DMCreateLocalVector(p->dm, &p->w));
  PetscCall(femgpu_test::project_linearization_point(p->dm, 1.0, p->w));
  PetscCall(assemble_petsc(p->dm, p->w, &p->J));
  PetscCall(femgpu_test::create_fem_gpu(p->dm, c, p->w, &p->A));
  mass.form = "mass";
  mass.lmbda = 0;
  if (femgpu_test::is_vector_form(c.form)) mass.form = "elasticity", mass.lmbda = 0, mass.mu = 0.25;  // a vector operator of the same pattern
  PetscCall(femgpu_test::create_problem(comm, mass, &p->mass_dm));
  PetscCall(DMCreateLocalVector(p->mass_dm, &mass_w));
  PetscCall(assemble_petsc(p->mass_dm, mass_w, &p->M_aij));
  PetscCall(VecDestroy(&mass_w));
  PetscCall(femgpu_test::create_fem_gpu(p->dm, mass, p->w, &p->M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode destroy(Problem *p)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&p->A));
  PetscCall(MatDestroy(&p->J));
  PetscCall(MatDestroy(&p->M));
  PetscCall(MatDestroy(&p->M_aij));
  PetscCall(VecDestroy(&p->w));
  PetscCall(DMDestroy(&p->mass_dm));
  PetscCall(DMDestroy(&p->dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every operation of A against J on random vectors: the largest relative difference
// (every shipped form is symmetric: fem_gpu has the transposes).
PetscErrorCode products_difference(Mat A, Mat J, PetscReal *worst)
{
  Vec x, y, ya, yj;
  PetscReal d = 0;  // set by relative_difference (gcc -O2 cannot see it through PetscCall)
  PetscFunctionBegin;
  *worst = 0;
  PetscCall(MatCreateVecs(J, &x, &y));
  PetscCall(VecDuplicate(y, &ya));
  PetscCall(VecDuplicate(y, &yj));
  PetscCall(VecSetRandom(x, nullptr));
  PetscCall(VecSetRandom(y, nullptr));
  const std::vector<std::function<PetscErrorCode(Mat, Vec)>> operations = {
      [&](Mat B, Vec out) { return MatMult(B, x, out); },
      [&](Mat B, Vec out) { return MatMultAdd(B, x, y, out); },
      [&](Mat B, Vec out) { return MatGetDiagonal(B, out); },
      [&](Mat B, Vec out) { return MatMultTranspose(B, x, out); },
      [&](Mat B, Vec out) { return MatMultTransposeAdd(B, x, y, out); },
  };
  for (const auto &operation : operations) {
    PetscCall(operation(A, ya));
    PetscCall(operation(J, yj));
    PetscCall(relative_difference(ya, yj, &d));
    *worst = PetscMax(*worst, d == d ? d : PETSC_INFINITY);
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One edit, applied to the fem_gpu Mat (its mass M) or PETSc's (its mass M_aij).
using Edit = std::function<PetscErrorCode(Mat target, Mat mass)>;

// Random positive diagonals, the same for both sides (made once).
struct Diagonals {
  Vec left = nullptr, right = nullptr, added = nullptr;
};

PetscErrorCode make_diagonals(Mat J, Diagonals *d)
{
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(J, &d->right, &d->left));
  PetscCall(VecDuplicate(d->left, &d->added));
  for (Vec v : {d->left, d->right, d->added}) {
    PetscCall(VecSetRandom(v, nullptr));
    PetscCall(VecShift(v, 0.5));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The first two rows this rank owns (TS and PCs use MatZeroRowsColumns for constraints).
std::vector<PetscInt> first_rows(Mat J)
{
  PetscInt start, end;
  MatGetOwnershipRange(J, &start, &end);
  std::vector<PetscInt> rows;
  for (PetscInt r = start; r < end && r < start + 2; ++r) rows.push_back(r);
  return rows;
}

PetscErrorCode scale_shift(Mat T, PetscScalar scale, PetscScalar shift)
{
  PetscFunctionBegin;
  PetscCall(MatScale(T, scale));
  PetscCall(MatShift(T, shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode shift_scale(Mat T, PetscScalar shift, PetscScalar scale)
{
  PetscFunctionBegin;
  PetscCall(MatShift(T, shift));
  PetscCall(MatScale(T, scale));
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::vector<std::pair<std::string, Edit>> edits(const Diagonals &d, const std::vector<PetscInt> &rows)
{
  return {
      {"MatScale(2.5), MatShift(0.75)", [](Mat T, Mat) { return scale_shift(T, 2.5, 0.75); }},
      {"MatAXPY(0.3, mass)", [](Mat T, Mat Ms) { return MatAXPY(T, 0.3, Ms, SUBSET_NONZERO_PATTERN); }},
      {"MatDiagonalScale(l, r)", [=](Mat T, Mat) { return MatDiagonalScale(T, d.left, d.right); }},
      {"MatShift(-0.2), MatScale(-1.5)", [](Mat T, Mat) { return shift_scale(T, -0.2, -1.5); }},
      {"MatDiagonalSet(D, ADD_VALUES)", [=](Mat T, Mat) { return MatDiagonalSet(T, d.added, ADD_VALUES); }},
      {"MatDiagonalSet(D, INSERT_VALUES)", [=](Mat T, Mat) { return MatDiagonalSet(T, d.left, INSERT_VALUES); }},
      {"MatZeroRowsColumns(2 rows a rank, 3.0)",
       [=](Mat T, Mat) { return MatZeroRowsColumns(T, static_cast<PetscInt>(rows.size()), rows.data(), 3.0, nullptr, nullptr); }},
  };
}

// An AIJ of J's layout holding the identity: the diagonal pattern only.
PetscErrorCode diagonal_aij(Mat J, Mat *D)
{
  PetscInt m, n, start, end;
  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(J, &m, &n));
  PetscCall(MatGetOwnershipRange(J, &start, &end));
  PetscCall(MatCreateAIJ(PetscObjectComm((PetscObject)J), m, n, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr, D));
  for (PetscInt r = start; r < end; ++r) PetscCall(MatSetValue(*D, r, r, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*D, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*D, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The copies of A: converted, duplicated, copied into a fem_gpu Mat and into AIJs; each
// against J.
PetscErrorCode check_copies(const Problem &p, const std::string &after, PetscReal tolerance)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)p.A);
  Mat B, D, C, aij, diagonal;
  PetscReal d;
  PetscFunctionBegin;
  PetscCall(MatConvert(p.A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(entry_difference(B, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatConvert after " + after, d));
  PetscCall(MatDuplicate(p.A, MAT_COPY_VALUES, &D));
  PetscCall(entry_difference(D, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatDuplicate(MAT_COPY_VALUES), converted", d));
  PetscCall(MatDuplicate(p.M, MAT_COPY_VALUES, &C));  // another form: MatCopy makes it A
  PetscCall(MatCopy(p.A, C, SAME_NONZERO_PATTERN));
  PetscCall(entry_difference(C, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatCopy into a fem_gpu Mat, converted", d));
  PetscCall(MatDuplicate(p.J, MAT_DO_NOT_COPY_VALUES, &aij));
  PetscCall(MatCopy(p.A, aij, SAME_NONZERO_PATTERN));
  PetscCall(entry_difference(aij, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatCopy into PETSc's AIJ of the DM", d));
  PetscCall(diagonal_aij(p.J, &diagonal));
  PetscCall(MatCopy(p.A, diagonal, DIFFERENT_NONZERO_PATTERN));
  PetscCall(entry_difference(diagonal, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatCopy(DIFFERENT_NONZERO_PATTERN) into a diagonal AIJ", d));
  PetscCall(MatScale(p.A, 1.25));  // one more edit: MAT_REUSE_MATRIX must see it
  PetscCall(MatScale(p.J, 1.25));
  PetscCall(MatConvert(p.A, MATAIJ, MAT_REUSE_MATRIX, &B));
  PetscCall(entry_difference(B, p.J, &d));
  PetscCall(expect(comm, d <= tolerance, "  MatConvert(MAT_REUSE_MATRIX) after one more MatScale(1.25)", d));
  for (Mat *m : {&B, &D, &C, &aij, &diagonal}) PetscCall(MatDestroy(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode compare(MPI_Comm comm, const Case &c, PetscReal tolerance)
{
  Problem p;
  Diagonals diagonals;
  PetscReal d;
  PetscFunctionBegin;
  // MATSHELL's MatDiagonalSet(INSERT_VALUES) keeps D - diag(A) and adds it in MatMult:
  // a product cancels there, to about 1e-14 of |y|; an entry is D itself.
  const PetscReal products_tolerance = 100 * tolerance;
  PetscCall(create(comm, c, &p));
  PetscCall(make_diagonals(p.J, &diagonals));
  PetscCall(PetscPrintf(comm, "%s P%" PetscInt_FMT ":\n", c.form.c_str(), c.degree));
  std::string done;
  for (const auto &edit : edits(diagonals, first_rows(p.J))) {
    PetscCall(edit.second(p.A, p.M));
    PetscCall(edit.second(p.J, p.M_aij));
    done += (done.empty() ? "" : ", ") + edit.first;
    PetscCall(products_difference(p.A, p.J, &d));
    PetscCall(expect(comm, d <= products_tolerance, "after " + edit.first + ": products and diagonal", d));
    PetscCall(check_copies(p, edit.first, tolerance));
  }
  // A final assembly drops the edits, as MATSHELL drops its state: the form's operator again.
  Mat J0;
  PetscCall(MatAssemblyBegin(p.A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(p.A, MAT_FINAL_ASSEMBLY));
  PetscCall(assemble_petsc(p.dm, p.w, &J0));
  PetscCall(products_difference(p.A, J0, &d));
  PetscCall(expect(comm, d <= products_tolerance, "after MatAssemblyEnd: products and diagonal of the form's operator", d));
  Mat B;
  PetscCall(MatConvert(p.A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(entry_difference(B, J0, &d));
  PetscCall(expect(comm, d <= tolerance, "after MatAssemblyEnd: MatConvert is the form's operator", d));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&J0));
  for (Vec *v : {&diagonals.left, &diagonals.right, &diagonals.added}) PetscCall(VecDestroy(v));
  PetscCall(destroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -bad copy: MatCopy(SAME_NONZERO_PATTERN) into an AIJ holding the diagonal only.
PetscErrorCode copy_into_diagonal(MPI_Comm comm, const Case &c)
{
  Problem p;
  Mat diagonal;
  PetscFunctionBegin;
  PetscCall(create(comm, c, &p));
  PetscCall(diagonal_aij(p.J, &diagonal));
  PetscCall(MatCopy(p.A, diagonal, SAME_NONZERO_PATTERN));
  PetscCall(MatDestroy(&diagonal));
  PetscCall(destroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -hypre: the unedited operator solved by the solve_ KSP (its PC converts A) against LU.
PetscErrorCode solve(MPI_Comm comm, const Case &c)
{
  Problem p;
  Vec b, y, z;
  PetscReal d;
  PetscFunctionBegin;
  PetscCall(create(comm, c, &p));
  PetscCall(MatCreateVecs(p.J, &y, &b));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecSetRandom(b, nullptr));
  PetscCall(solve_both(p.A, p.J, b, y, z));
  PetscCall(relative_difference(y, z, &d));
  PetscCall(expect(comm, d <= 1e-8, "solution with the solve_ KSP against LU", d));
  for (Vec *v : {&b, &y, &z}) PetscCall(VecDestroy(v));
  PetscCall(destroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run(MPI_Comm comm)
{
  Case c;
  char form[64] = "laplace", bad[16] = "";
  PetscReal tolerance = 1e-14;
  PetscBool hypre = PETSC_FALSE;
  PetscFunctionBegin;
  c.degree = 2;
  c.lmbda = 0.7;
  c.forms_dir = FEMGPU_FORMS_DIR;
  PetscOptionsBegin(comm, "", "Edited fem_gpu Mat vs AIJ options", "");
  PetscCall(PetscOptionsString("-form", "Shipped form name", "", form, form, sizeof(form), nullptr));
  PetscCall(PetscOptionsInt("-degree", "Lagrange degree", "", c.degree, &c.degree, nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "Relative tolerance", "", tolerance, &tolerance, nullptr));
  PetscCall(PetscOptionsString("-bad", "One bad call: copy", "", bad, bad, sizeof(bad), nullptr));
  PetscCall(PetscOptionsBool("-hypre", "Solve with the solve_ KSP options instead", "", hypre, &hypre, nullptr));
  PetscOptionsEnd();
  c.form = form;
  if (std::string(bad) == "copy") PetscCall(copy_into_diagonal(comm, c));
  else if (hypre) PetscCall(solve(comm, c));
  else PetscCall(compare(comm, c, tolerance));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(run(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
