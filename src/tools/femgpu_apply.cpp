// femgpu-apply: apply a form's operator on a mesh and print a(u, v) = v^T A u.
//
// Stages: options -> mesh (FEMGPUCreateMeshFromOptions, optional P2 coordinates and
// perturbation) -> P_K Lagrange field -> fem_gpu Mat (DMCreateMatrix; every
// -mat_fem_gpu_* option applies) -> u, v and coefficients interpolated from
// expressions in x (ExpressionEvaluator + DMProjectFunction) -> y = A u -> v . y,
// and the median time of a few applies. No boundary conditions. -apply_y_view VIEWER
// views y = A u (binary:FILE to compare backends exactly); -apply_mat_view views the
// Mat after the timed applies.
#include <petscdmplex.h>
#include <petscfe.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "femgpu.h"
#include "form/parser.h"
#include "ir/expression_evaluator.h"
#include "form/quoted_text.h"
#include "petsc/plex/mesh_geometry.h"
#include "petsc/base/option_checks.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/petsc_errors.h"

static const char help[] =
    "femgpu-apply: applies the operator of a UFL form on a mesh and prints a(u,v) = v^T A u.\n"
    "  femgpu-apply -form_file share/femgpu/forms/mass.ufl -dm_plex_dim 2 -dm_plex_box_faces 4,4 \\\n"
    "               -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]'      (prints a(u,v) = 1/6)\n"
    "Mesh options: -dm_plex_dim, -dm_plex_box_faces, -dm_plex_box_lower/upper, -dm_plex_filename,\n"
    "-dm_plex_simplex, -dm_refine, -dm_distribute; the operator takes every -mat_fem_gpu_* option.\n";

namespace {

using femgpu::ExpressionEvaluator;

struct ApplyOptions {
  std::string form_file;  // texts are read whole (option_checks.h: PETSc's readers cut them)
  PetscInt degree = 1, components = 1, coordinate_degree = 1, n_apply = 5;
  PetscReal perturb = 0.0;
  std::string u_expr, v_expr;
  PetscBool aux = PETSC_FALSE;   // coefficients in the DM's auxiliary vector, not MatFEMGPUSetCoefficient
  PetscBool help = PETSC_FALSE;  // -help: list the options of the mesh and the Mat too, apply nothing
};

PetscErrorCode read_options(MPI_Comm comm, ApplyOptions *o)
{
  PetscBool set;
  const femgpu::OptionSource src;  // the default database, no prefix
  PetscFunctionBegin;
  PetscOptionsBegin(comm, "", "femgpu-apply options", "");
  PetscCall(femgpu::read_text_option(PetscOptionsObject, src, "-form_file", "UFL form file (required)", "", &o->form_file, &set));
  PetscCall(PetscOptionsInt("-degree", "Lagrange degree K of the field", "", o->degree, &o->degree, nullptr));
  PetscCall(PetscOptionsInt("-components", "Components C of the field (1: scalar; d for vector forms)", "", o->components, &o->components, nullptr));
  PetscCall(PetscOptionsInt("-coordinate_degree", "Coordinate degree (1 affine, 2 curved-capable P2)", "", o->coordinate_degree, &o->coordinate_degree, nullptr));
  PetscCall(PetscOptionsReal("-mesh_perturb", "Move interior coordinate nodes by up to this much (reproducible)", "", o->perturb, &o->perturb, nullptr));
  PetscCall(femgpu::read_text_option(PetscOptionsObject, src, "-u_expr", "Trial function u, an expression in x (default 1, or all ones)", "", &o->u_expr, &set));
  PetscCall(femgpu::read_text_option(PetscOptionsObject, src, "-v_expr", "Test function v, an expression in x (default 1, or all ones)", "", &o->v_expr, &set));
  PetscCall(PetscOptionsName("-coefficient_<name>_expr", "Coefficient <name> of the form, an expression in x (interpolated in its own element)", "", nullptr));
  PetscCall(PetscOptionsBool("-coefficients_auxiliary", "Give the coefficients as fields of the DM's auxiliary vector (DMSetAuxiliaryVec)", "",
                             o->aux, &o->aux, nullptr));
  PetscCall(PetscOptionsInt("-n_apply", "Applies to time (the median is printed)", "", o->n_apply, &o->n_apply, nullptr));
  PetscOptionsEnd();
  PetscCall(PetscOptionsHasHelp(nullptr, &o->help));
  PetscCheck(!o->form_file.empty() || o->help, comm, PETSC_ERR_USER_INPUT, "femgpu-apply: no form; give -form_file FILE.ufl (see -help)");
  PetscCheck(o->n_apply >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "femgpu-apply: -n_apply must be >= 1");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The mesh with one P_K field of C components.
PetscErrorCode create_space(MPI_Comm comm, const ApplyOptions &o, DM *dm)
{
  PetscInt dim;
  PetscBool simplex;
  PetscFE fe;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(femgpu::set_coordinate_degree(*dm, o.coordinate_degree));
  PetscCall(femgpu::perturb_interior_coordinates(*dm, o.perturb));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexIsSimplex(*dm, &simplex));  // a tensor mesh gets a Q_K field, which the Mat then refuses
  PetscCall(PetscFECreateLagrange(comm, dim, o.components, simplex, o.degree, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(PetscFEDestroy(&fe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode evaluate_at(PetscInt, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *ctx)
{
  static_cast<const ExpressionEvaluator *>(ctx)->evaluate(x, u);
  return PETSC_SUCCESS;
}

// v = the interpolant of texts[f] (option sources[f]) in field f of the DM, every field.
PetscErrorCode interpolate(DM dm, const std::vector<std::string> &texts, const std::vector<std::string> &sources, Vec *v)
{
  using Function = PetscErrorCode (*)(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *);
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscInt dim, components;
  PetscFE fe;
  std::vector<std::unique_ptr<ExpressionEvaluator>> e(texts.size());
  std::vector<Function> funcs(texts.size(), evaluate_at);
  std::vector<void *> ctxs;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  for (size_t f = 0; f < texts.size(); ++f) {
    PetscCall(DMGetField(dm, static_cast<PetscInt>(f), nullptr, (PetscObject *)&fe));
    PetscCall(PetscFEGetNumComponents(fe, &components));
    FEMGPU_CXX(comm, e[f] = std::make_unique<ExpressionEvaluator>(femgpu::parse_expression(texts[f], sources[f], static_cast<int>(dim)), static_cast<int>(dim)));
    const femgpu::Shape want = femgpu::element_shape(femgpu::Element{1, static_cast<int>(components)});
    PetscCheck(e[f]->shape() == want, comm, PETSC_ERR_ARG_WRONG, "femgpu-apply: %s = '%s' has shape %s, but the field has %s (%" PetscInt_FMT " components)",
               sources[f].c_str(), femgpu::excerpt(texts[f]).c_str(), femgpu::shape_string(e[f]->shape()).c_str(), femgpu::shape_string(want).c_str(), components);
    ctxs.push_back(e[f].get());
  }
  PetscCall(DMCreateGlobalVector(dm, v));
  PetscCall(DMProjectFunction(dm, 0.0, funcs.data(), ctxs.data(), INSERT_ALL_VALUES, *v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A clone of the mesh with one field per coefficient, each in its own element and
// named after it (how the Mat finds a coefficient among auxiliary fields).
PetscErrorCode coefficient_dm(DM dm, const std::vector<femgpu::CoefficientInfo> &cs, DM *cdm)
{
  PetscInt dim;
  PetscBool simplex;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexIsSimplex(dm, &simplex));
  PetscCall(DMClone(dm, cdm));
  for (size_t f = 0; f < cs.size(); ++f) {
    PetscFE fe;
    PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)dm), dim, cs[f].element.components, simplex, cs[f].element.degree, PETSC_DETERMINE, &fe));
    PetscCall(PetscObjectSetName((PetscObject)fe, cs[f].name.c_str()));
    PetscCall(DMSetField(*cdm, static_cast<PetscInt>(f), nullptr, (PetscObject)fe));
    PetscCall(PetscFEDestroy(&fe));
  }
  PetscCall(DMCreateDS(*cdm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::string ones(PetscInt components)
{
  if (components == 1) return "1";
  std::string s = "as_vector([1";
  for (PetscInt c = 1; c < components; ++c) s += ", 1";
  return s + "])";
}

// The form's coefficients whose -coefficient_<name>_expr is given, with their texts.
PetscErrorCode given_coefficients(DM dm, const ApplyOptions &o, std::vector<femgpu::CoefficientInfo> *cs, std::vector<std::string> *texts)
{
  PetscInt dim;
  std::vector<femgpu::CoefficientInfo> all;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  femgpu::FormSignature sig{dim == 2 ? femgpu::CellType::Triangle : femgpu::CellType::Tetrahedron,
                            femgpu::Element{static_cast<int>(o.degree), static_cast<int>(o.components)}, static_cast<int>(o.coordinate_degree)};
  try {
    all = femgpu::parse_form_file(o.form_file, sig).a.coefficients;
  } catch (const femgpu::FormError &) {
    PetscFunctionReturn(PETSC_SUCCESS);  // the Mat reports it, with the field it was read for, at setup
  }
  for (const femgpu::CoefficientInfo &c : all) {
    std::string text;
    PetscBool set;
    PetscCall(femgpu::get_text_option({}, ("-coefficient_" + c.name + "_expr").c_str(), &text, &set));
    if (!set) continue;  // the Mat reports it if a needs it
    cs->push_back(c);
    texts->push_back(text);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Interpolates -coefficient_<name>_expr into each coefficient's own element, and hands
// the values to the Mat: one Vec each (MatFEMGPUSetCoefficient), or, with
// -coefficients_auxiliary, all as fields of the DM's auxiliary vector.
PetscErrorCode set_coefficients(Mat A, DM dm, const ApplyOptions &o)
{
  std::vector<femgpu::CoefficientInfo> cs;
  std::vector<std::string> texts;
  PetscFunctionBegin;
  PetscCall(given_coefficients(dm, o, &cs, &texts));
  if (cs.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  std::vector<std::string> sources;
  for (const femgpu::CoefficientInfo &c : cs) sources.push_back("-coefficient_" + c.name + "_expr");
  if (o.aux) {
    DM cdm;
    Vec g, l;
    PetscCall(coefficient_dm(dm, cs, &cdm));
    PetscCall(interpolate(cdm, texts, sources, &g));
    PetscCall(DMCreateLocalVector(cdm, &l));
    PetscCall(DMGlobalToLocal(cdm, g, INSERT_VALUES, l));
    PetscCall(DMSetAuxiliaryVec(dm, nullptr, 0, 0, l));
    PetscCall(VecDestroy(&l));
    PetscCall(VecDestroy(&g));
    PetscCall(DMDestroy(&cdm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (size_t i = 0; i < cs.size(); ++i) {
    DM cdm;
    Vec w;
    PetscCall(coefficient_dm(dm, {cs[i]}, &cdm));
    PetscCall(interpolate(cdm, {texts[i]}, {sources[i]}, &w));
    PetscCall(MatFEMGPUSetCoefficient(A, cs[i].name.c_str(), w));
    PetscCall(VecDestroy(&w));
    PetscCall(DMDestroy(&cdm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = A u, n times; the median wall time of one apply.
PetscErrorCode time_applies(Mat A, Vec u, Vec y, PetscInt n, PetscLogDouble *median)
{
  std::vector<PetscLogDouble> t(static_cast<size_t>(n));
  PetscFunctionBegin;
  for (PetscLogDouble &ti : t) {
    PetscLogDouble t0, t1;
    PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
    PetscCall(PetscTime(&t0));
    PetscCall(MatMult(A, u, y));
    PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
    PetscCall(PetscTime(&t1));
    ti = t1 - t0;
  }
  std::sort(t.begin(), t.end());
  *median = t[t.size() / 2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run(MPI_Comm comm)
{
  ApplyOptions o;
  DM dm;
  Mat A;
  Vec u, v, y;
  PetscScalar value = 0;
  PetscLogDouble median = 0;
  const char *backend;
  PetscFunctionBegin;
  PetscCall(read_options(comm, &o));
  PetscCall(create_space(comm, o, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE));  // no AIJ pattern: a fem_gpu Mat stores no entries
  PetscCall(DMCreateMatrix(dm, &A));
  if (o.form_file.empty()) {  // only -help
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&dm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSetFormFile(A, o.form_file.c_str()));
  PetscCall(set_coefficients(A, dm, o));
  PetscCall(interpolate(dm, {!o.u_expr.empty() ? o.u_expr : ones(o.components)}, {"-u_expr"}, &u));
  PetscCall(interpolate(dm, {!o.v_expr.empty() ? o.v_expr : ones(o.components)}, {"-v_expr"}, &v));
  PetscCall(VecDuplicate(u, &y));
  PetscCall(MatMult(A, u, y));  // sets the operator up
  PetscCall(VecViewFromOptions(y, nullptr, "-apply_y_view"));  // e.g. binary:y.bin, to compare backends
  PetscCall(VecDot(y, v, &value));
  PetscCall(MatFEMGPUGetBackend(A, &backend));
  PetscCall(time_applies(A, u, y, o.n_apply, &median));
  PetscCall(PetscPrintf(comm, "a(u,v) = %.17g\n", (double)PetscRealPart(value)));
  PetscCall(PetscPrintf(comm, "backend: %s\n", backend));
  PetscCall(PetscPrintf(comm, "time per apply: %.6e s (median of %" PetscInt_FMT ")\n", (double)median, o.n_apply));
  PetscCall(MatViewFromOptions(A, nullptr, "-apply_mat_view"));  // after the timed applies: MatView's measured GFLOP/s
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(run(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
