// MatCreateVecs of a fem_gpu Mat gives the Vecs its DM would (DMCreateGlobalVector): the
// same type, sizes, block size and DM, a new Vec at every call, and a new type after
// DMSetVecType (what any cache of them, e.g. one Vec duplicated instead of
// DMCreateGlobalVector's walk over the chart, must keep). A P2 vector field on a box from
// the options (-dim, -faces); 1 and 2 ranks. Exit 1 on a failure.
#include <petscdmplex.h>

#include <string>

#include "femgpu.h"
#include "lagrange_box.h"

static const char help[] = "Checks that a fem_gpu Mat's MatCreateVecs gives its DM's Vecs.\n  -dim D -faces N\n";

namespace {

int failures = 0;

void expect(bool ok, const std::string &what)
{
  if (!ok) ++failures;
  PetscCallVoid(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", ok ? "ok" : "FAIL", what.c_str()));
}

// v against the DM's own Vec: type, global and local sizes, block size, DM.
PetscErrorCode compare(DM dm, Vec v, const std::string &name)
{
  Vec ref;
  VecType tv, tr;
  PetscInt nv, nr, Nv, Nr, bv, br;
  DM vdm;
  PetscBool same;
  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dm, &ref));
  PetscCall(VecGetType(v, &tv));
  PetscCall(VecGetType(ref, &tr));
  PetscCall(PetscStrcmp(tv, tr, &same));
  PetscCall(VecGetLocalSize(v, &nv));
  PetscCall(VecGetLocalSize(ref, &nr));
  PetscCall(VecGetSize(v, &Nv));
  PetscCall(VecGetSize(ref, &Nr));
  PetscCall(VecGetBlockSize(v, &bv));
  PetscCall(VecGetBlockSize(ref, &br));
  PetscCall(VecGetDM(v, &vdm));
  expect(same && nv == nr && Nv == Nr && bv == br && vdm == dm,
         name + " is the DM's Vec (type " + tv + " / " + tr + ", sizes " + std::to_string(nv) + "/" + std::to_string(Nv) + " against " + std::to_string(nr) +
           "/" + std::to_string(Nr) + ", block " + std::to_string(bv) + " against " + std::to_string(br) + ", its DM " + (vdm == dm ? "the Mat's" : "another") + ")");
  PetscCall(VecDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM dm;
  Mat A;
  Vec r1, l1, r2, l2;
  PetscInt dim = 2, faces = 3;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "MatCreateVecs check", nullptr);
  PetscCall(PetscOptionsInt("-dim", "mesh dimension", nullptr, dim, &dim, nullptr));
  PetscCall(PetscOptionsInt("-faces", "cells a side", nullptr, faces, &faces, nullptr));
  PetscOptionsEnd();
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, dim, faces, dim, 2, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));

  PetscCall(MatCreateVecs(A, &r1, &l1));
  PetscCall(MatCreateVecs(A, &r2, &l2));
  PetscCall(compare(dm, r1, "the first right Vec"));
  PetscCall(compare(dm, l1, "the first left Vec"));
  PetscCall(compare(dm, r2, "the second right Vec"));
  expect(r1 != r2 && r1 != l1 && l1 != l2, "every call gives new Vecs");
  PetscCall(VecSet(r1, 1.0));
  PetscCall(VecSet(r2, 2.0));
  PetscReal s1, s2;
  PetscCall(VecMax(r1, nullptr, &s1));
  PetscCall(VecMax(r2, nullptr, &s2));
  expect(s1 == 1.0 && s2 == 2.0, "their arrays are their own");
  PetscCall(VecDestroy(&r1));
  PetscCall(VecDestroy(&l1));
  PetscCall(VecDestroy(&r2));
  PetscCall(VecDestroy(&l2));

  PetscCall(DMSetVecType(dm, VECMPI));  // another type: the Mat's Vecs follow
  PetscCall(MatCreateVecs(A, &r1, nullptr));
  PetscCall(compare(dm, r1, "the right Vec after DMSetVecType(dm, VECMPI)"));
  PetscCall(VecDestroy(&r1));

  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", failures ? "FAIL" : "PASS"));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
