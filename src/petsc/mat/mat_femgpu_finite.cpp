// -mat_fem_gpu_check_finite: the first apply and the first diagonal of a fem_gpu Mat
// are checked for non-finite values (inf, nan) in their output where everything they
// read is finite: the input Vec(s) and the bound coefficient Vecs. A form can make them
// from finite data in ways no static check sees (1/c with a constant c = 0, exp of a
// large coefficient, sqrt of a negative one); the error names the option, the Mat,
// the operation, how many values and the first one.
// Does not: check later applies (the option is a first-use check, like
// -mat_fem_gpu_check_jacobian), nor an output whose inputs are not finite (that one is
// not the form's doing: the check waits for an apply with finite inputs).
#include <cmath>
#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu_finite.h"

namespace femgpu {

namespace {

// Non-finite entries of v's local array: their count, and the global index and value of the first.
struct NonFinite {
  PetscInt count = 0, first = -1;
  PetscScalar value = 0;
};

PetscErrorCode scan_local(Vec v, NonFinite *found)
{
  const PetscScalar *a;
  PetscInt n, start;
  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetOwnershipRange(v, &start, nullptr));
  PetscCall(VecGetArrayRead(v, &a));
  for (PetscInt i = 0; i < n; ++i) {
    if (std::isfinite(static_cast<double>(PetscRealPart(a[i]))) && std::isfinite(static_cast<double>(PetscImaginaryPart(a[i])))) continue;
    if (found->count++ == 0) found->first = start + i, found->value = a[i];
  }
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// True on every rank when every input is finite on every rank (one reduction over A's
// communicator: inputs may be local Vecs, which differ between ranks).
PetscErrorCode inputs_finite(Mat A, MatFEMGPUContext *ctx, const std::vector<Vec> &given, bool *finite)
{
  NonFinite local;
  PetscInt total;
  PetscFunctionBegin;
  std::vector<Vec> inputs = given;
  for (const auto &kv : ctx->op.coefficients)
    if (kv.second.vec) inputs.push_back(kv.second.vec);
  if (ctx->op.linearization) inputs.push_back(ctx->op.linearization);
  for (Vec v : inputs) PetscCall(scan_local(v, &local));
  PetscCallMPI(MPI_Allreduce(&local.count, &total, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
  *finite = total == 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const kKinds[] = {"", "nan", "inf", "-inf", "a non-finite imaginary part"};

// Index of v's kind in kKinds.
PetscInt kind_of(PetscScalar v)
{
  const double re = static_cast<double>(PetscRealPart(v));
  if (std::isnan(re)) return 1;
  if (std::isinf(re)) return re > 0 ? 2 : 3;
  return 4;
}

// " 'name'" where the user named the Mat, " with options prefix 'p_'" where it has one.
PetscErrorCode describe_mat(Mat A, std::string *text)
{
  const char *prefix;
  PetscFunctionBegin;
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  if (((PetscObject)A)->name) *text = std::string(" '") + ((PetscObject)A)->name + "'";
  else if (prefix && prefix[0]) *text = std::string(" with options prefix '") + prefix + "'";
  else text->clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The output's non-finite values: an error naming the first, on every rank.
PetscErrorCode check_output(Mat A, MatFEMGPUContext *ctx, const char *operation, Vec output)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  NonFinite local;
  PetscInt total, first, kind = 0, any_kind;
  PetscFunctionBegin;
  PetscCall(scan_local(output, &local));
  PetscCallMPI(MPI_Allreduce(&local.count, &total, 1, MPIU_INT, MPI_SUM, comm));
  if (total == 0) PetscFunctionReturn(PETSC_SUCCESS);
  const PetscInt mine = local.count ? local.first : PETSC_MAX_INT;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPIU_INT, MPI_MIN, comm));
  if (local.count && local.first == first) kind = kind_of(local.value);  // the owner of the first tells its kind
  PetscCallMPI(MPI_Allreduce(&kind, &any_kind, 1, MPIU_INT, MPI_MAX, comm));
  std::string name;
  PetscCall(describe_mat(A, &name));
  SETERRQ(comm, PETSC_ERR_FP,
          "-mat_fem_gpu_check_finite: %s of the fem_gpu Mat%s (form %s) gave %" PetscInt_FMT " non-finite value(s) from finite inputs (first: entry %" PetscInt_FMT
          " = %s): the form divides by zero or overflows for these data; check its constants (a constant c = 0 in 1/c) and coefficients",
          operation, name.c_str(), ctx->op.form_source.c_str(), total, first, kKinds[any_kind]);
}

}  // namespace

PetscErrorCode MatFEMGPUCheckFinite(Mat A, MatFEMGPUContext *ctx, const char *operation, const std::vector<Vec> &inputs, Vec output, bool *done)
{
  bool finite;
  PetscFunctionBegin;
  if (!ctx->options.check_finite || *done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(inputs_finite(A, ctx, inputs, &finite));
  if (!finite) {
    PetscCall(PetscInfo(A, "fem_gpu: -mat_fem_gpu_check_finite: an input of %s is not finite; the check waits for one with finite inputs\n", operation));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *done = true;
  PetscCall(check_output(A, ctx, operation, output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
