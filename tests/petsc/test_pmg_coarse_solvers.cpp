// The p-multigrid's unassembled coarse solve (-pc_fem_gpu_pmg_coarse chebyshev) applies the
// same operator as the assembled one: CG with fem_gpu_pmg on a field of -degree (a vector
// one with -components 0) with a zero essential condition on "left", solved from the same
// random right-hand side twice, by KSPs of two prefixes:
//   mf_  the P1 level left a fem_gpu Mat (-mf_pc_fem_gpu_pmg_coarse chebyshev);
//   as_  the P1 level assembled (the default) and solved by the Chebyshev/Jacobi iterations
//        the ctest gives under this prefix (-as_mg_coarse_ksp_type chebyshev ...).
// With the same Chebyshev interval and count under both prefixes the two coarse solves are
// the same polynomial in the same operator, so CG must take the same iterations and give
// the same solution; and the mf_ coarse KSP's operator must be the fem_gpu P1 level (not
// an assembled matrix), the as_ one's not. Exit 1 on a failure.
#include <petscdmplex.h>
#include <petscksp.h>

#include <string>

#include "femgpu.h"
#include "left_constrained_field.h"

static const char help[] = "Checks that the p-multigrid's unassembled coarse solve applies the assembled one's operator.\n"
                           "  -degree K -components 1|0 (0: the mesh's dimension) -form_file F.ufl, and options under mf_ and as_\n";

namespace {

// Solves A x = b with CG and a new fem_gpu_pmg under `prefix`; the coarse KSP's operator type.
PetscErrorCode solve(Mat A, Vec b, Vec x, const char *prefix, PetscInt *its, std::string *coarse_type)
{
  KSP ksp, coarse;
  PC pc;
  Mat op;
  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, "fem_gpu_pmg"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetOperators(coarse, &op, nullptr));
  *coarse_type = ((PetscObject)op)->type_name;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM dm;
  Mat A;
  Vec b, xm, xa;
  PetscInt degree = 2, components = 1, its_m = 0, its_a = 0;
  char form_file[PETSC_MAX_PATH_LEN] = "";
  std::string type_m, type_a;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, nullptr, "p-multigrid coarse solve check", nullptr);
  PetscCall(PetscOptionsInt("-degree", "the operator's degree", nullptr, degree, &degree, nullptr));
  PetscCall(PetscOptionsInt("-components", "field components (0: the mesh's dimension)", nullptr, components, &components, nullptr));
  PetscCall(PetscOptionsString("-form_file", "form of the operator", nullptr, form_file, form_file, sizeof(form_file), nullptr));
  PetscOptionsEnd();
  PetscCall(CreateLeftConstrainedField(comm, degree, &components, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetFormFile(A, form_file));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatCreateVecs(A, &xm, &b));
  PetscCall(VecDuplicate(xm, &xa));
  PetscCall(VecSetRandom(b, nullptr));

  PetscCall(solve(A, b, xm, "mf_", &its_m, &type_m));
  PetscCall(solve(A, b, xa, "as_", &its_a, &type_a));

  PetscReal diff, norm;
  PetscCall(VecNorm(xa, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(xm, -1.0, xa));
  PetscCall(VecNorm(xm, NORM_INFINITY, &diff));
  const bool unassembled = type_m == MATFEMGPU && type_a != MATFEMGPU;
  const bool ok = unassembled && its_m == its_a && diff <= 1e-8 * norm;
  PetscCall(PetscPrintf(comm,
                        "P%" PetscInt_FMT ", %" PetscInt_FMT " components: coarse operators %s (mf_) and %s (as_); iterations %" PetscInt_FMT
                        " and %" PetscInt_FMT ", |x_mf - x_as| / |x_as| = %.3g: %s\n",
                        degree, components, type_m.c_str(), type_a.c_str(), its_m, its_a, (double)(diff / norm), ok ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xm));
  PetscCall(VecDestroy(&xa));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
