// MatCreateVecs of a fem_gpu Mat gives the Vecs its DM would (DMCreateGlobalVector): the
// same type, sizes, block size and DM, a new Vec at every call, and a new type after
// DMSetVecType (what any cache of them, e.g. one Vec duplicated instead of
// DMCreateGlobalVector's walk over the chart, must keep), also once a global Vec of the DM
// was shown (dm_work_vecs.h: duplicates of it, then), and after the DM's Vec type or
// section changed. A P2 vector field on a box from the options (-dim, -faces); 1 and 2
// ranks. Exit 1 on a failure.
#include <petscdmplex.h>
#include <petsc/private/vecimpl.h>

#include <string>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/plex/dm_work_vecs.h"

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

// The local Vec the DM keeps (dm_get_local_vec_like): the DM's local layout and type,
// its DM while lent, the same one lent again after its restore, a pool Vec while it is
// lent, and a new one after the section changed.
PetscErrorCode check_local_work(DM dm)
{
  Vec like, a, b, c;
  PetscInt n_like, n_a, n_b;
  DM adm;
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, &like));
  PetscCall(femgpu::dm_get_local_vec_like(dm, like, &a));
  PetscCall(femgpu::dm_get_local_vec_like(dm, like, &b));
  PetscCall(VecGetLocalSize(like, &n_like));
  PetscCall(VecGetLocalSize(a, &n_a));
  PetscCall(VecGetLocalSize(b, &n_b));
  PetscCall(VecGetDM(a, &adm));
  expect(a != like && b != a && b != like && n_a == n_like && n_b == n_like && adm == dm, "a kept local Vec: the DM's layout, its DM while lent, another while lent");
  PetscCall(VecSet(like, 1.0));
  PetscCall(VecSet(a, 2.0));
  PetscCall(VecSet(b, 3.0));
  PetscReal m_like, m_a;
  PetscCall(VecMax(like, nullptr, &m_like));
  PetscCall(VecMax(a, nullptr, &m_a));
  expect(m_like == 1.0 && m_a == 2.0, "its array is its own");
  Vec kept = a;
  PetscCall(femgpu::dm_restore_local_vec_like(dm, &b));
  PetscCall(femgpu::dm_restore_local_vec_like(dm, &a));
  PetscCall(VecGetDM(kept, &adm));
  expect(!a && !adm, "restored: the caller's handle cleared, the kept Vec without its DM");
  PetscCall(femgpu::dm_get_local_vec_like(dm, like, &c));
  expect(c == kept, "lent again after its restore");
  PetscCall(femgpu::dm_restore_local_vec_like(dm, &c));
  PetscCall(DMRestoreLocalVector(dm, &like));

  PetscSection old, section;  // the DM's with one more DOF on the first point: another layout
  PetscInt pStart, pEnd;
  PetscCall(DMGetLocalSection(dm, &old));
  PetscCall(PetscSectionGetChart(old, &pStart, &pEnd));
  PetscCall(PetscSectionCreate(PETSC_COMM_SELF, &section));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  for (PetscInt p = pStart; p < pEnd; ++p) {
    PetscInt dof;
    PetscCall(PetscSectionGetDof(old, p, &dof));
    PetscCall(PetscSectionSetDof(section, p, dof + (p == pStart)));
  }
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(dm, section));
  PetscCall(DMClearLocalVectors(dm));  // PETSc's pool keeps Vecs of the old layout
  PetscCall(PetscSectionDestroy(&section));
  PetscCall(DMGetLocalVector(dm, &like));
  PetscCall(femgpu::dm_get_local_vec_like(dm, like, &c));
  PetscCall(VecGetLocalSize(like, &n_like));
  PetscCall(VecGetLocalSize(c, &n_a));
  expect(n_a == n_like && n_like == n_b + 1, "after the section changed: a new kept Vec of its layout (" + std::to_string(n_a) + " entries, " + std::to_string(n_like) + " in the DM's)");
  PetscCall(femgpu::dm_restore_local_vec_like(dm, &c));
  PetscCall(DMRestoreLocalVector(dm, &like));
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

  // A global Vec the DM has shown (as SNES's iterate is, dm_work_vecs.h): its duplicates,
  // without what was composed on it, with the DM's Vec operations.
  Vec x, ref;
  PetscContainer tag;
  PetscObject found;
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(PetscContainerCreate(PETSC_COMM_WORLD, &tag));
  PetscCall(PetscObjectCompose((PetscObject)x, "a_users_object", (PetscObject)tag));
  PetscCall(femgpu::dm_note_global_vec(dm, x));
  PetscCall(MatCreateVecs(A, &r1, &l1));
  PetscCall(compare(dm, r1, "the right Vec after a global Vec was shown"));
  PetscCall(compare(dm, l1, "the left Vec after a global Vec was shown"));
  PetscCall(PetscObjectQuery((PetscObject)r1, "a_users_object", &found));
  expect(!found, "nothing composed on the shown Vec reaches the Mat's Vecs");
  PetscCall(DMCreateGlobalVector(dm, &ref));
  expect(r1->ops->view == ref->ops->view && r1->ops->load == ref->ops->load, "the Mat's Vecs view and load as the DM's do");
  PetscCall(VecSet(x, 3.0));
  PetscCall(VecSet(r1, 1.0));
  PetscReal sx;
  PetscCall(VecMax(x, nullptr, &sx));
  expect(sx == 3.0 && r1 != x && l1 != x, "the shown Vec is not lent");
  PetscCall(VecDestroy(&ref));
  PetscCall(VecDestroy(&r1));
  PetscCall(VecDestroy(&l1));
  PetscCall(PetscContainerDestroy(&tag));

  PetscCall(DMSetVecType(dm, VECMPI));  // another type: the Mat's Vecs follow
  PetscCall(MatCreateVecs(A, &r1, nullptr));
  PetscCall(compare(dm, r1, "the right Vec after DMSetVecType(dm, VECMPI)"));
  PetscCall(VecDestroy(&r1));
  PetscCall(DMSetVecType(dm, VECSTANDARD));

  // Another section (a P1 field in place of the P2 one): the shown Vec is out of date.
  PetscFE p1;
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, dim, dim, PETSC_TRUE, 1, PETSC_DETERMINE, &p1));
  PetscCall(DMClearFields(dm));
  PetscCall(DMSetField(dm, 0, nullptr, (PetscObject)p1));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMSetLocalSection(dm, nullptr));  // made again from the new field
  PetscCall(PetscFEDestroy(&p1));
  PetscCall(MatCreateVecs(A, &r1, nullptr));
  PetscCall(compare(dm, r1, "the right Vec after the DM's section changed"));
  PetscCall(VecDestroy(&r1));
  PetscCall(VecDestroy(&x));

  PetscCall(check_local_work(dm));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", failures ? "FAIL" : "PASS"));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
