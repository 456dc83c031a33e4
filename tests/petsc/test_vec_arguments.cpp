// Vec arguments of a fem_gpu Mat's operations that do not fit it are errors before any
// array is read or written: shorter and longer Vecs, a Vec of a P1 DM for a P3 operator
// (PETSC_ERR_ARG_SIZ), a Vec of the right global size distributed otherwise over the ranks
// (PETSC_ERR_ARG_INCOMP where PETSc's own checks do not come first), for MatGetDiagonal,
// MatMult, MatMultAdd, MatMultTranspose, MatMultTransposeAdd, the local residual of
// -dm_fem_gpu_form_file, and MatGetDiagonal of a multi-field Mat (Stokes) and of its zero
// block. Then the same Mat applies and gives its diagonal with the right
// Vecs: the bad calls changed nothing.
//
// Without -case: every case under PetscReturnErrorHandler, each checked for its error
// code and, where femgpu's check answers, for the operation's and the argument's names;
// exit code 1 on a failure. With -case NAME: that one bad call, whose message ctest
// matches. The operator: the mass form on P3 (symmetric, so the transpose exists).
#include <petscdmplex.h>
#include <petscsnes.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/base/petsc_compat.h"
#include "stokes_problem.h"

static const char help[] = "Checks that Vec arguments which do not fit a fem_gpu Mat are errors.\n"
                           "  -case diagonal_short|diagonal_long|diagonal_p1|diagonal_layout|mult_short_x|mult_long_y|multadd_long_z|\n"
                           "        transpose_short_x|transpose_add_short_z|transpose_add_layout_z|residual_short_x|fields_diagonal_short|\n"
                           "        zero_block_diagonal_short  (one bad call)\n";

namespace {

int failures = 0;

// The message of the last error: PETSc 3.18 hands it out as char *, later versions as const char *.
template <class R, class A, class B, class C> const char *specific_message(R (*message_of)(A, B, C), PetscErrorCode e)
{
  std::remove_pointer_t<C> message = nullptr;
  return message_of(e, nullptr, &message) == PETSC_SUCCESS ? message : nullptr;
}

// What the Mat and its Vecs are made of.
struct Setup {
  DM dm = nullptr, p1 = nullptr;
  Mat A = nullptr;
  Vec x = nullptr, y = nullptr;  // the right ones
};

PetscErrorCode create(MPI_Comm comm, Setup *s)
{
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(comm, 2, 3, 1, 3, &s->dm));
  PetscCall(CreateLagrangeBox(comm, 2, 3, 1, 1, &s->p1));
  PetscCall(DMSetMatType(s->dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(s->dm, &s->A));
  PetscCall(MatFEMGPUSetFormFile(s->A, FEMGPU_FORMS_DIR "/mass.ufl"));
  PetscCall(MatSetFromOptions(s->A));
  PetscCall(DMCreateGlobalVector(s->dm, &s->x));
  PetscCall(VecDuplicate(s->x, &s->y));
  PetscCall(VecSetRandom(s->x, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode destroy(Setup *s)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&s->x));
  PetscCall(VecDestroy(&s->y));
  PetscCall(MatDestroy(&s->A));
  PetscCall(DMDestroy(&s->p1));
  PetscCall(DMDestroy(&s->dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A Vec of global size N + extra (PETSc's distribution).
PetscErrorCode sized(Vec like, PetscInt extra, Vec *v)
{
  PetscInt N;
  PetscFunctionBegin;
  PetscCall(VecGetSize(like, &N));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)like), PETSC_DECIDE, N + extra, v));
  PetscCall(VecSet(*v, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// `like`'s global size, one entry moved from the last rank to the first.
PetscErrorCode redistributed(Vec like, Vec *v)
{
  PetscInt n;
  PetscMPIInt rank, size;
  MPI_Comm comm = PetscObjectComm((PetscObject)like);
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(like, &n));
  PetscCall(VecCreateMPI(comm, n + (rank == 0 ? 1 : 0) - (rank == size - 1 ? 1 : 0), PETSC_DETERMINE, v));
  PetscCall(VecSet(*v, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode p1_vec(const Setup &s, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(s.p1, v));
  PetscCall(VecSet(*v, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// femgpu's residual of -dm_fem_gpu_form_file on s.dm, called with a local Vec 3 entries short.
PetscErrorCode residual_short_x(const Setup &s)
{
  SNES snes;
  PetscErrorCode (*residual)(DM, Vec, Vec, void *) = nullptr;
  void *ctx = nullptr;
  Vec x, f;
  PetscInt n;
  PetscFunctionBegin;
  PetscCall(SNESCreate(PetscObjectComm((PetscObject)s.dm), &snes));
  PetscCall(SNESSetDM(snes, s.dm));
#if PETSC_VERSION_LT(3, 21, 0)
  PetscCall(DMPlexSetSNESLocalFEM(s.dm, nullptr, nullptr, nullptr));
#else
  PetscCall(DMPlexSetSNESLocalFEM(s.dm, PETSC_FALSE, nullptr));
#endif
  PetscCall(PetscOptionsSetValue(nullptr, "-dm_fem_gpu_form_file", FEMGPU_TEST_DATA_DIR "/linear_problem.ufl"));
  PetscCall(SNESSetFromOptions(snes));  // femgpu's options checker makes the residual its own
  PetscCall(PetscOptionsClearValue(nullptr, "-dm_fem_gpu_form_file"));
  PetscCall(DMSNESGetFunctionLocal(s.dm, &residual, &ctx));
  PetscCall(DMGetLocalVector(s.dm, &f));
  PetscCall(VecGetSize(f, &n));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n - 3, &x));
  PetscCall(VecSet(x, 1.0));
  PetscErrorCode e = residual(s.dm, x, f, ctx);
  PetscCall(VecDestroy(&x));
  PetscCall(DMRestoreLocalVector(s.dm, &f));
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(e);
}

// MatGetDiagonal with a Vec 3 entries short on the Stokes operator's multi-field fem_gpu
// Mat (stokes_problem.h), or on its zero (1, 1) block from MatCreateSubMatrix.
PetscErrorCode stokes_diagonal_short(const Setup &s, bool zero_block)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)s.A);
  DM dm;
  Mat A, block = nullptr;
  Vec good, d;
  IS *is = nullptr;
  PetscInt dim, n_fields = 0;
  PetscFunctionBegin;
  PetscCall(stokes::create_dm(comm, 1.0, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetForm(A, stokes::stokes_form(dim, false).c_str(), "stokes"));
  PetscCall(MatSetFromOptions(A));
  if (zero_block) {
    PetscCall(DMCreateFieldIS(dm, &n_fields, nullptr, &is));
    PetscCall(MatCreateSubMatrix(A, is[1], is[1], MAT_INITIAL_MATRIX, &block));
  }
  Mat target = zero_block ? block : A;
  PetscCall(MatCreateVecs(target, nullptr, &good));
  PetscCall(sized(good, -3, &d));
  PetscErrorCode e = MatGetDiagonal(target, d);
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&good));
  for (PetscInt f = 0; f < n_fields; ++f) PetscCall(ISDestroy(&is[f]));
  PetscCall(PetscFree(is));
  PetscCall(MatDestroy(&block));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(e);
}

struct Case {
  const char *name;
  PetscErrorCode code;  // expected
  const char *names;    // phrases femgpu's message must hold, |-separated (null: PETSc's own check comes first)
  bool parallel_only;   // a layout case: needs two ranks
  std::function<PetscErrorCode(const Setup &)> call;
};

// Makes a bad Vec with `make`, calls `call` with it, destroys it; the call's error.
PetscErrorCode with_vec(const Setup &s, const std::function<PetscErrorCode(const Setup &, Vec *)> &make,
                        const std::function<PetscErrorCode(Vec)> &call)
{
  Vec bad;
  PetscFunctionBegin;
  PetscCall(make(s, &bad));
  PetscErrorCode e = call(bad);
  PetscCall(VecDestroy(&bad));
  PetscFunctionReturn(e);
}

std::vector<Case> cases()
{
  auto shorter = [](const Setup &s, Vec *v) { return sized(s.x, -3, v); };
  auto longer = [](const Setup &s, Vec *v) { return sized(s.x, 3, v); };
  auto other_layout = [](const Setup &s, Vec *v) { return redistributed(s.x, v); };
  const PetscErrorCode SIZ = PETSC_ERR_ARG_SIZ, INCOMP = PETSC_ERR_ARG_INCOMP;
  return {
      {"diagonal_short", SIZ, "MatGetDiagonal()|Vec d has", false, [=](const Setup &s) { return with_vec(s, shorter, [&](Vec d) { return MatGetDiagonal(s.A, d); }); }},
      {"diagonal_long", SIZ, "MatGetDiagonal()|Vec d has", false, [=](const Setup &s) { return with_vec(s, longer, [&](Vec d) { return MatGetDiagonal(s.A, d); }); }},
      {"diagonal_p1", SIZ, "MatGetDiagonal()|Vec d has", false, [=](const Setup &s) { return with_vec(s, p1_vec, [&](Vec d) { return MatGetDiagonal(s.A, d); }); }},
      {"diagonal_layout", INCOMP, "MatGetDiagonal()|Vec d has", true,
       [=](const Setup &s) { return with_vec(s, other_layout, [&](Vec d) { return MatGetDiagonal(s.A, d); }); }},
      {"mult_short_x", SIZ, nullptr, false, [=](const Setup &s) { return with_vec(s, shorter, [&](Vec x) { return MatMult(s.A, x, s.y); }); }},
      {"mult_long_y", SIZ, nullptr, false, [=](const Setup &s) { return with_vec(s, longer, [&](Vec y) { return MatMult(s.A, s.x, y); }); }},
      {"multadd_long_z", SIZ, nullptr, false, [=](const Setup &s) { return with_vec(s, longer, [&](Vec z) { return MatMultAdd(s.A, s.x, s.y, z); }); }},
      {"transpose_short_x", SIZ, nullptr, false, [=](const Setup &s) { return with_vec(s, shorter, [&](Vec x) { return MatMultTranspose(s.A, x, s.y); }); }},
      {"transpose_add_short_z", SIZ, nullptr, false,
       [=](const Setup &s) { return with_vec(s, shorter, [&](Vec z) { return MatMultTransposeAdd(s.A, s.x, s.y, z); }); }},
      {"transpose_add_layout_z", INCOMP, "MatMultTransposeAdd()|Vec z has", true,
       [=](const Setup &s) { return with_vec(s, other_layout, [&](Vec z) { return MatMultTransposeAdd(s.A, s.x, s.y, z); }); }},
      {"residual_short_x", SIZ, "residual of -dm_fem_gpu_form_file|local Vec x_local", false, residual_short_x},
      {"fields_diagonal_short", SIZ, "MatGetDiagonal() of a fem_gpu Mat|Vec d has", false, [](const Setup &s) { return stokes_diagonal_short(s, false); }},
      {"zero_block_diagonal_short", SIZ, "MatGetDiagonal() of a zero block|Vec d has", false, [](const Setup &s) { return stokes_diagonal_short(s, true); }},
  };
}

// Every |-separated phrase of `names` is in the message.
bool names_all(const char *message, const char *names)
{
  if (!names) return true;
  const std::string all = names;
  for (size_t at = 0; at <= all.size();) {
    const size_t end = std::min(all.find('|', at), all.size());
    if (!message || !std::strstr(message, all.substr(at, end - at).c_str())) return false;
    at = end + 1;
  }
  return true;
}

PetscErrorCode run_all(const Setup &s)
{
  PetscMPIInt size;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)s.A), &size));
  for (const Case &c : cases()) {
    if (c.parallel_only && size < 2) continue;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
    const PetscErrorCode e = c.call(s);
    PetscCall(PetscPopErrorHandler());
    const bool ok = e == c.code && names_all(specific_message(PetscErrorMessage, e), c.names);
    failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: error %d (expected %d) %s\n", c.name, (int)e, (int)c.code, ok ? "ok" : "FAIL"));
  }
  // The Mat is as it was: its diagonal is the row sums of the mass matrix's positive
  // diagonal, and A 1 sums to the domain's area.
  Vec d;
  PetscReal min_diagonal;
  PetscScalar area;
  PetscCall(VecDuplicate(s.y, &d));
  PetscCall(MatGetDiagonal(s.A, d));
  PetscCall(VecMin(d, nullptr, &min_diagonal));
  PetscCall(VecSet(d, 1.0));
  PetscCall(MatMult(s.A, d, s.y));
  PetscCall(VecSum(s.y, &area));
  const bool ok = min_diagonal > 0 && PetscAbsScalar(area - 1.0) < 1e-12;
  failures += ok ? 0 : 1;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after the bad calls: min diagonal %g, 1^T A 1 = %.15g %s\n", (double)min_diagonal, (double)PetscRealPart(area),
                        ok ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run(MPI_Comm comm)
{
  Setup s;
  char name[64] = "";
  PetscBool one;
  PetscFunctionBegin;
  PetscOptionsBegin(comm, "", "Vec argument checks", "");
  PetscCall(PetscOptionsString("-case", "Make this one bad call", "", name, name, sizeof(name), &one));
  PetscOptionsEnd();
  PetscCall(create(comm, &s));
  if (!one) PetscCall(run_all(s));
  bool known = !one;
  for (const Case &c : cases())
    if (one && std::strcmp(c.name, name) == 0) {
      known = true;
      PetscCall(c.call(s));
    }
  PetscCheck(known, comm, PETSC_ERR_ARG_WRONG, "unknown -case %s (see -help)", name);
  PetscCall(destroy(&s));
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
