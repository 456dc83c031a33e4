// Binding the form's coefficients to Vecs at setup, in the order docs/petsc.md gives:
// the Vec of MatFEMGPUSetCoefficient, the field of the DM's auxiliary vector that has the
// coefficient's name, TS's U_t (the time derivative w_t of w), SNES's linearization point
// (the one other coefficient on the field's element of a Jacobian), or the auxiliary
// vector's only field when the form has one
// coefficient. A coefficient on the trial
// element reads through the Mat's closure map; one in its own element through the map of
// its field in the DM its values live in (coefficient_fields.h).
#include "petsc/mat/coefficient_binding.h"
#include "petsc/mat/mat_context.h"
#include "petsc/plex/coefficient_fields.h"
#include "form/time_dependent.h"

namespace femgpu {

namespace {

// Whether the Mat's operator or one of its facet parts (which share the form's
// coefficient table) evaluates coefficient i: a Jacobian's w may be in a ds term alone
// (2 w u v ds(3) from a flux w^2 v ds(3)), its dx part free of it.
bool uses_coefficient(const MatFEMGPUContext &ctx, size_t i)
{
  const int f = coefficient_function(static_cast<int>(i));
  if (ctx.op.ir->group_of_function(f) >= 0) return true;
  for (const FacetPart &p : ctx.op.facets)
    if (p.ir->group_of_function(f) >= 0) return true;
  return false;
}

int used_coefficients(const MatFEMGPUContext &ctx)
{
  int n = 0;
  for (size_t i = 0; i < ctx.op.ir->coefficients.size(); ++i) n += uses_coefficient(ctx, i);
  return n;
}

// Points binding `b` at field `field` of `dm`: its closure map and local size.
PetscErrorCode use_field(const MatFEMGPUContext *ctx, const std::string &name, DM dm, PetscInt field, CoefficientBinding *b)
{
  PetscInt n_cells, width;
  PetscFunctionBegin;
  b->dm = dm;
  PetscCall(plex_field_map(dm, field, &n_cells, &width, &b->map, &b->local_size));
  PetscCheck(n_cells == ctx->op.mesh_maps().n_cells, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
             "fem_gpu: coefficient '%s' is read from a DM with %" PetscInt_FMT " cells on this rank; the Mat's DM has %" PetscInt_FMT
             " (the coefficient's DM must be on the same mesh: DMClone it)", name.c_str(), n_cells, ctx->op.mesh_maps().n_cells);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Checks that field `f` of `fields` holds coefficient `c`'s element.
PetscErrorCode check_field(MPI_Comm comm, const CoefficientInfo &c, CellType cell, const std::vector<FieldElement> &fields, PetscInt f,
                           const char *where)
{
  PetscFunctionBegin;
  const FieldElement &fe = fields[static_cast<size_t>(f)];
  PetscCheck(fe.supported && fe.element == c.element, comm, PETSC_ERR_ARG_INCOMP,
             "fem_gpu: coefficient '%s' is %s, but it binds to %s of %s, whose fields are: %s", c.name.c_str(),
             describe_element(c.element, cell).c_str(), fe.text.c_str(), where, describe_fields(fields).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The DM's auxiliary vector, read in place (it is local): the field named after `c`, or
// (sole) its only field. *fields lists the auxiliary fields ("" without a vector).
PetscErrorCode bind_auxiliary(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c, bool sole, CoefficientBinding *b, bool *bound,
                              std::string *fields_text)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Vec aux;
  DM adm;
  std::vector<FieldElement> fields;
  PetscFunctionBegin;
  *bound = false;
  PetscCall(plex_auxiliary_vec(ctx->op.dm, &aux));
  if (!aux) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetDM(aux, &adm));
  PetscCheck(adm, comm, PETSC_ERR_ARG_WRONG, "fem_gpu: the DM's auxiliary vector has no DM (create it with DMCreateLocalVector of the auxiliary DM)");
  PetscCall(plex_field_elements(adm, &fields));
  *fields_text = describe_fields(fields);
  const PetscInt f = coefficient_field(fields, c.name, sole);
  if (f < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(check_field(comm, c, ctx->op.signature.cell, fields, f, "the DM's auxiliary vector"));
  PetscCall(PetscObjectReference((PetscObject)aux));
  PetscCall(PetscObjectReference((PetscObject)aux));
  b->vec = b->local = aux;  // held twice, as the linearization point: read in place
  b->state = -1;
  b->auxiliary = true;
  PetscCall(use_field(ctx, c.name, adm, f, b));
  PetscCall(PetscInfo(A, "fem_gpu: coefficient '%s' is field %" PetscInt_FMT " of the DM's auxiliary vector\n", c.name.c_str(), f));
  *bound = true;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The time derivative w_t of the form's w (form/time_dependent.h), which TS's U_t binds.
bool is_rate(const MatFEMGPUContext &ctx, const CoefficientInfo &c)
{
  return is_time_derivative(c.name, ctx.op.ir->coefficients, ctx.op.signature.element);
}

// The coefficients on the field's element the operator uses, but a time derivative.
int used_on_trial_element(const MatFEMGPUContext &ctx)
{
  const ActionIR &ir = *ctx.op.ir;
  int n = 0;
  for (size_t i = 0; i < ir.coefficients.size(); ++i)
    n += uses_coefficient(ctx, i) && ir.coefficients[i].element == ir.signature.element && !is_rate(ctx, ir.coefficients[i]);
  return n;
}

// w_t: TS's U_t, a local vector read in place (held twice, as the linearization point);
// without a TS, an error that says why it has no value.
PetscErrorCode bind_rate(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c, CoefficientBinding *b)
{
  PetscFunctionBegin;
  PetscCheck(ctx->op.time_derivative, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE,
             "fem_gpu: form %s names the coefficient '%s', the time derivative of '%s' that a TS program gives (U_t), but no TS gives this "
             "operator one: it is not a TS program's residual or IJacobian (a SNES program's, or a Mat of its own). Solve the problem with TS, "
             "remove '%s' from the form (a steady problem), or call MatFEMGPUSetCoefficient(A, \"%s\", vec)",
             ctx->op.form_source.c_str(), c.name.c_str(), time_derivative_of(c.name).c_str(), c.name.c_str(), c.name.c_str());
  PetscCall(PetscObjectReference((PetscObject)ctx->op.time_derivative));
  PetscCall(PetscObjectReference((PetscObject)ctx->op.time_derivative));
  b->vec = b->local = ctx->op.time_derivative;
  PetscCall(PetscInfo(A, "fem_gpu: coefficient '%s' is TS's time derivative U_t\n", c.name.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A coefficient no Vec was given for, in this order: the auxiliary field named after it;
// TS's U_t for the time derivative w_t of w; SNES's iterate, the point the Jacobian of
// F(w) is taken at (the form's one coefficient on the field's element but w_t; a local
// vector already, so also the ghosted copy the action reads, held twice); the auxiliary
// vector's only field (the form's one coefficient).
PetscErrorCode bind_unset(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c)
{
  CoefficientBinding b;
  bool bound;
  std::string fields;
  PetscFunctionBegin;
  PetscCall(bind_auxiliary(A, ctx, c, false, &b, &bound, &fields));
  if (!bound && is_rate(*ctx, c)) {
    PetscCall(bind_rate(A, ctx, c, &b));
    bound = true;
  }
  if (!bound && ctx->op.linearization && c.element == ctx->op.signature.element && used_on_trial_element(*ctx) == 1) {
    PetscCall(PetscObjectReference((PetscObject)ctx->op.linearization));
    PetscCall(PetscObjectReference((PetscObject)ctx->op.linearization));
    b.vec = b.local = ctx->op.linearization;
    bound = true;
    PetscCall(PetscInfo(A, "fem_gpu: coefficient '%s' is SNES's linearization point\n", c.name.c_str()));
  }
  if (!bound) PetscCall(bind_auxiliary(A, ctx, c, used_coefficients(*ctx) == 1, &b, &bound, &fields));
  PetscCheck(bound || !fields.empty(), PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE,
             "fem_gpu: form %s needs coefficient '%s': call MatFEMGPUSetCoefficient(A, \"%s\", vec), or give the DM an auxiliary vector "
             "(DMSetAuxiliaryVec) with a field named '%s'",
             ctx->op.form_source.c_str(), c.name.c_str(), c.name.c_str(), c.name.c_str());
  PetscCheck(bound, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "fem_gpu: form %s needs coefficient '%s': no MatFEMGPUSetCoefficient(A, \"%s\", vec), and no field of the DM's auxiliary vector "
             "is named '%s' (name its PetscFE so); the auxiliary fields are: %s",
             ctx->op.form_source.c_str(), c.name.c_str(), c.name.c_str(), c.name.c_str(), fields.c_str());
  ctx->op.coefficients.emplace(c.name, std::move(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A Vec given for a coefficient in its own element: a Vec of a DM with that element.
PetscErrorCode bind_own_element(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c, CoefficientBinding *b)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  DM vdm;
  std::vector<FieldElement> fields;
  PetscInt n, global_size;
  PetscFunctionBegin;
  const std::string element = describe_element(c.element, ctx->op.signature.cell);
  PetscCall(VecGetDM(b->vec, &vdm));
  PetscCheck(vdm, comm, PETSC_ERR_ARG_WRONG,
             "fem_gpu: coefficient '%s' is %s, not the DM's field's element, and its Vec has no DM: create it from a DM with that "
             "element (DMClone the Mat's DM, DMSetField with a PetscFE of that element, DMCreateGlobalVector)",
             c.name.c_str(), element.c_str());
  PetscCall(plex_field_elements(vdm, &fields));
  const PetscInt f = coefficient_field(fields, c.name, true);
  PetscCheck(f >= 0, comm, PETSC_ERR_ARG_WRONG, "fem_gpu: coefficient '%s' (%s): its Vec's DM has several fields and none is named '%s'; its fields are: %s",
             c.name.c_str(), element.c_str(), c.name.c_str(), describe_fields(fields).c_str());
  PetscCall(check_field(comm, c, ctx->op.signature.cell, fields, f, "its Vec's DM"));
  PetscCall(use_field(ctx, c.name, vdm, f, b));
  PetscCall(VecGetSize(b->vec, &n));
  Vec g;
  PetscCall(DMGetGlobalVector(vdm, &g));
  PetscCall(VecGetSize(g, &global_size));
  PetscCall(DMRestoreGlobalVector(vdm, &g));
  PetscCheck(n == global_size || n == b->local_size, comm, PETSC_ERR_ARG_SIZ,
             "fem_gpu: coefficient '%s' has size %" PetscInt_FMT "; its DM's global Vecs have %" PetscInt_FMT " entries and local ones %" PetscInt_FMT,
             c.name.c_str(), n, global_size, b->local_size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A Vec given for a coefficient on the trial element: a Vec of the Mat's DM.
PetscErrorCode check_trial_element_vec(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c, CoefficientBinding *b)
{
  PetscInt n, global_size;
  PetscFunctionBegin;
  b->dm = nullptr;
  b->map.clear();
  b->local_size = -1;
  PetscCall(MatGetSize(A, nullptr, &global_size));
  PetscCall(VecGetSize(b->vec, &n));
  PetscCheck(n == global_size || n == ctx->op.maps().local_size, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ,
             "fem_gpu: coefficient '%s' has size %" PetscInt_FMT "; expected %" PetscInt_FMT " (a global Vec of the DM) or %" PetscInt_FMT " (a local Vec)",
             c.name.c_str(), n, global_size, ctx->op.maps().local_size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode bind_coefficient(Mat A, MatFEMGPUContext *ctx, const CoefficientInfo &c)
{
  const bool trial_element = c.element == ctx->op.signature.element;
  PetscFunctionBegin;
  auto it = ctx->op.coefficients.find(c.name);
  if (it != ctx->op.coefficients.end() && it->second.auxiliary) {  // bound at an earlier setup: look again
    PetscCall(VecDestroy(&it->second.vec));
    PetscCall(VecDestroy(&it->second.local));
    ctx->op.coefficients.erase(it);
    it = ctx->op.coefficients.end();
  }
  if (it == ctx->op.coefficients.end()) {
    PetscCall(bind_unset(A, ctx, c));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // A Vec in the trial element's layout reads through the Mat's map; any other (a Vec of
  // an auxiliary DM, or a coefficient in its own element) through its field in its DM.
  PetscInt n, global_size;
  DM vdm;
  PetscCall(VecGetSize(it->second.vec, &n));
  PetscCall(MatGetSize(A, nullptr, &global_size));
  PetscCall(VecGetDM(it->second.vec, &vdm));
  const bool trial_layout = n == global_size || n == ctx->op.maps().local_size;
  if (trial_element && (trial_layout || !vdm)) PetscCall(check_trial_element_vec(A, ctx, c, &it->second));
  else PetscCall(bind_own_element(A, ctx, c, &it->second));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUBindCoefficients(Mat A, MatFEMGPUContext *ctx)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < ctx->op.ir->coefficients.size(); ++i) {
    if (!uses_coefficient(*ctx, i)) continue;  // unused by a
    PetscCall(bind_coefficient(A, ctx, ctx->op.ir->coefficients[i]));
  }
  for (const auto &kv : ctx->op.coefficients) {
    bool known = false;
    for (const CoefficientInfo &c : ctx->op.ir->coefficients) known = known || c.name == kv.first;
    PetscCheck(known, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "MatFEMGPUSetCoefficient(): form %s has no coefficient '%s'",
               ctx->op.form_source.c_str(), kv.first.c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
