// Setup of a fem_gpu Mat (form -> IR -> tables -> maps -> backend) and MatView.
#include <petscdmplex.h>

#include <sstream>

#include "femgpu.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "petsc/base/log_stage.h"
#include "petsc/base/option_checks.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/coefficient_binding.h"
#include "petsc/mat/dm_residual.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_backend.h"
#include "petsc/mat/mat_femgpu_facets.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"
#include "petsc/mat/mat_femgpu_performance.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/mat/mat_femgpu_solver.h"
#include "petsc/plex/plex_geometry_check.h"

namespace femgpu {

namespace {

// The form's constants, as a list for messages ("mu, lmbda", or "none").
std::string constant_names(const ActionIR &ir)
{
  std::string names;
  for (const ConstantInfo &c : ir.constants) names += (names.empty() ? "" : ", ") + c.name;
  return names.empty() ? "none" : names;
}

// Every -mat_fem_gpu_constant_<name> given for this Mat's prefix names a constant of its
// form: a misspelt one would otherwise leave the default in place without a word.
PetscErrorCode check_constant_options(Mat A, const MatFEMGPUContext *ctx, const char *prefix)
{
  PetscOptions options;
  char *all;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptions((PetscObject)A, &options));
  PetscCall(PetscOptionsGetAll(options, &all));
  const std::string lead = std::string("-") + (prefix ? prefix : "") + "mat_fem_gpu_constant_";
  std::istringstream words(all);
  PetscCall(PetscFree(all));
  for (std::string word; words >> word;) {
    PetscBool ours;
    PetscCall(PetscStrcasecmp(word.substr(0, lead.size()).c_str(), lead.c_str(), &ours));
    if (!ours || word.size() <= lead.size()) continue;
    const std::string name = word.substr(lead.size());
    bool known = false;  // PETSc matches option names without regard to case
    for (const ConstantInfo &c : ctx->op.ir->constants) {
      PetscBool same;
      PetscCall(PetscStrcasecmp(c.name.c_str(), name.c_str(), &same));
      known = known || same;
    }
    PetscCheck(known, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "%s: form %s has no constant '%s' (its constants: %s)", word.c_str(),
               ctx->op.form_source.c_str(), name.c_str(), constant_names(*ctx->op.ir).c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode resolve_constants(Mat A, MatFEMGPUContext *ctx)
{
  const char *prefix;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  for (const auto &kv : ctx->op.constants_set) {
    bool found = false;
    for (const ConstantInfo &c : ctx->op.ir->constants) found = found || c.name == kv.first;
    PetscCheck(found, comm, PETSC_ERR_ARG_WRONG, "MatFEMGPUSetConstant(): form %s has no constant '%s' (its constants: %s)", ctx->op.form_source.c_str(),
               kv.first.c_str(), constant_names(*ctx->op.ir).c_str());
  }
  // The prefix the Mat's other options were read with: a program may change it after
  // MatSetFromOptions (PETSc's DMSNESCheckJacobian sets "jac_" on a Mat DMCreateMatrix made).
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  if (ctx->options.options_read) prefix = ctx->options.options_prefix.empty() ? nullptr : ctx->options.options_prefix.c_str();
  PetscCall(check_constant_options(A, ctx, prefix));
  ctx->op.constants.clear();
  PetscOptionsBegin(comm, prefix, "fem_gpu constants of the form", "Mat");
  for (const ConstantInfo &c : ctx->op.ir->constants) {
    PetscReal value = c.default_value;
    if (auto it = ctx->op.constants_set.find(c.name); it != ctx->op.constants_set.end()) value = it->second;
    std::string option = "-mat_fem_gpu_constant_" + c.name, help = "Value of the form's Constant '" + c.name + "'";
    PetscBool set;
    PetscCall(PetscOptionsReal(option.c_str(), help.c_str(), "MatFEMGPUSetConstant", value, &value, &set));
    if (set) PetscCall(check_real_option(option.c_str(), value, PETSC_MIN_REAL, PETSC_MAX_REAL));
    ctx->op.constants.push_back(value);
  }
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether a parser error is about shapes or components: the builders' messages
// (expr.h) name a shape, an index or an axis. Only those can come from reading a vector
// form on a scalar field (or the reverse); a syntax error gets no note about the DM.
bool is_shape_error(const std::string &what)
{
  if (what.find("unknown name") != std::string::npos) return false;  // a hint may name as_vector
  for (const char *word : {"shape", "index", "axis", "component", "scalar", "vector", "matrix", "square"})
    if (what.find(word) != std::string::npos) return true;
  return false;
}

// The parser's errors say what is wrong at file:line:col; add which field the form was
// read for, since a vector form on a scalar field (or the reverse) fails with a shape.
ParsedForms parse_form_text_for_dm(const std::string &text, const std::string &source, const FormSignature &sig)
{
  try {
    return parse_form_text(text, source, sig);
  } catch (const FormError &e) {
    if (!is_shape_error(e.what())) throw;
    const Element &el = sig.element;
    throw FormError(std::string(e.what()) + " (the form was read for the DM's field: P" + std::to_string(el.degree) +
                    (el.components == 1 ? " scalar" : " vector with " + std::to_string(el.components) + " components") + " on " +
                    cell_name(sig.cell) + "s. A form for a vector field needs a vector field in the DM, and vice versa)");
  }
}

// The Mat's own operator: the form's dx integrals, or for a form with ds integrals only,
// its first ds domain on local facet 0 (mat_femgpu_facets.cpp cuts it to those cells).
LowerOptions main_operator(const Form &form, LowerOptions lo, bool *on_facets)
{
  const IntegralDomain first = integral_domains(form).at(0);
  *on_facets = first.type == IntegralDomain::Type::ExteriorFacet;
  lo.domain = first;
  lo.facet = *on_facets ? 0 : -1;
  return lo;
}

// Whether `l` was lowered from what this Mat would lower now.
bool same_lowering(const LoweredOperator &l, const MatFEMGPUContext *ctx)
{
  const FormSignature &a = l.signature, &b = ctx->op.signature;
  return l.form_text == ctx->op.form_text && l.form_source == ctx->op.form_source && l.given_form == ctx->op.given_form && a.cell == b.cell &&
         a.element == b.element && a.coordinate_degree == b.coordinate_degree && l.residual == ctx->op.residual &&
         l.quadrature_degree == ctx->options.quadrature_degree && l.compress_points == (ctx->options.compress_points == PETSC_TRUE);
}

// The form of the Mat's DM lowered to its IR and tabulated: the operator (a or the
// Jacobian of F) or, for a residual Mat, F itself. *lo: the options the facet parts share.
// A duplicate's source lowered the same form already: its results are shared.
PetscErrorCode lower_operator(Mat A, MatFEMGPUContext *ctx, LowerOptions *lo)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  if (ctx->options.quadrature_degree >= 0) lo->quadrature_degree = static_cast<int>(ctx->options.quadrature_degree);
  if (ctx->op.residual) lo->rank = 1;
  if (ctx->op.lowered && same_lowering(*ctx->op.lowered, ctx)) {
    const LoweredOperator &l = *ctx->op.lowered;
    ctx->op.form = l.form;
    ctx->op.ir = l.ir;
    ctx->op.tab = l.tab;
    ctx->op.on_facets = l.on_facets;
    PetscCall(PetscInfo(A, "fem_gpu: the form %s as lowered for the Mat this one was copied from\n", ctx->op.form_source.c_str()));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  FEMGPU_CXX(comm, {
    if (ctx->op.given_form) {  // a block of a mixed form (mat_femgpu_fields.cpp) or a p-multigrid level's: no text to parse
      Form block = *ctx->op.given_form;
      block.signature = ctx->op.signature;  // its u and v on the DM's element (a p-multigrid level's degree)
      ctx->op.form = std::make_shared<const Form>(block);
      PetscCall(PetscInfo(A, "fem_gpu: the form %s as given, on the DM's element P%d: its text not read again\n", ctx->op.form_source.c_str(),
                          ctx->op.signature.element.degree));
    } else {
      ParsedForms forms = parse_form_text_for_dm(ctx->op.form_text, ctx->op.form_source, ctx->op.signature);
      if (ctx->op.residual && !forms.F)
        throw FormError(ctx->op.form_source + ": defines no residual F(w; v) and no right-hand side L(v); the DM's residual needs F, or a and L "
                                           "(F = a(w, v) - L(v))");
      if (!ctx->op.residual && !forms.has_bilinear())
        throw FormError(ctx->op.form_source + ": defines only a right-hand side L(v); an operator needs a bilinear form 'a' or a residual 'F'");
      ctx->op.form = std::make_shared<const Form>(ctx->op.residual ? *forms.F : forms.a);
      PetscCall(PetscInfo(A, "fem_gpu: the form %s: its text read for the DM's element P%d\n", ctx->op.form_source.c_str(),
                          ctx->op.signature.element.degree));
    }
    ctx->op.ir = std::make_shared<const ActionIR>(lower_form(*ctx->op.form, main_operator(*ctx->op.form, *lo, &ctx->op.on_facets)));
    ctx->op.tab = std::make_shared<const Tabulation>(
        tabulate_action(*ctx->op.ir, default_share_dir(), ctx->options.compress_points ? Points::Compressed : Points::Rule));
    ctx->op.lowered = std::make_shared<const LoweredOperator>(
        LoweredOperator{ctx->op.form_text, ctx->op.form_source, ctx->op.given_form, ctx->op.signature, ctx->op.residual, ctx->options.quadrature_degree,
                        ctx->options.compress_points == PETSC_TRUE, ctx->op.form, ctx->op.ir, ctx->op.tab, ctx->op.on_facets});
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The closure maps of the DM (built by the first fem_gpu Mat on it), checked against the
// element's size, and det J > 0 at the rule's points (plex_geometry_check.h).
PetscErrorCode build_maps(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_Maps, A, 0, 0, 0));
  PetscCall(plex_shared_maps(ctx->op.dm, &ctx->op.shared_maps));
  PetscCall(PetscLogEventEnd(FEMGPU_Maps, A, 0, 0, 0));
  const PetscInt expected = ctx->op.ir->n_test_basis * ctx->op.signature.element.components;
  PetscCheck(ctx->op.maps().n_cells == 0 || ctx->op.maps().width == expected, comm, PETSC_ERR_PLIB,
             "fem_gpu: cell closures have %" PetscInt_FMT " DOFs, the element has %" PetscInt_FMT, ctx->op.maps().width, expected);
  PetscCall(plex_check_geometry(ctx->op.dm, ctx->op.shared_maps, ctx->op.signature.coordinate_degree, ctx->op.tab->rule.points));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The single-field setup below; a Mat over a DM with several fields is its blocks
// (mat_femgpu_fields.h), and what reaches here on one is an operation they do not have.
PetscErrorCode check_single_field(DM dm)
{
  PetscInt n_fields;
  PetscFunctionBegin;
  PetscCall(DMGetNumFields(dm, &n_fields));
  PetscCheck(n_fields <= 1, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP,
             "fem_gpu: this operation is not supported on a Mat over a DM with %" PetscInt_FMT
             " fields (a multi-field fem_gpu Mat has MatMult, MatMultAdd, MatGetDiagonal, MatCreateSubMatrix for the fields, MatDuplicate and MatView: "
             "docs/petsc.md)",
             n_fields);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetUp(Mat A)
{
  MatFEMGPUContext *ctx;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  if (ctx->set_up) PetscFunctionReturn(PETSC_SUCCESS);
  ScopedLogStage stage;  // popped on every way out, errors included
  PetscCall(stage.push(kStageSetUp));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FEMGPU_SetUp, A, 0, 0, 0));
  DM dm;
  PetscCall(MatGetDM(A, &dm));
  if (dm) ctx->op.dm = dm;  // a residual Mat has its DM without the Mat holding it (snes_residual.cpp)
  PetscCheck(ctx->op.dm, comm, PETSC_ERR_ARG_WRONGSTATE, "fem_gpu: the Mat has no DM; create it with DMCreateMatrix() or call MatSetDM()");
  PetscCall(check_single_field(ctx->op.dm));
  if (ctx->op.form_source.empty()) PetscCall(MatFEMGPUFormOfDMResidual(ctx->op.dm, &ctx->op.form_text, &ctx->op.form_source));
  // An empty text is a form that was given: the parser says the file is empty.
  PetscCheck(!ctx->op.form_source.empty(), comm, PETSC_ERR_ARG_WRONGSTATE,
             "fem_gpu: no form; give -mat_fem_gpu_form_file FILE.ufl or call MatFEMGPUSetFormFile()");
  PetscCall(plex_form_signature(ctx->op.dm, &ctx->op.signature));
  LowerOptions lower;
  PetscCall(lower_operator(A, ctx, &lower));
  PetscCall(build_maps(A, ctx));
  PetscCall(MatFEMGPUSetUpFacets(A, ctx, lower));  // ds integrals: parts on boundary cells
  PetscCall(resolve_constants(A, ctx));
  PetscCall(MatFEMGPUCheckDMResidualConstants(A, ctx));
  PetscCall(MatFEMGPUBindCoefficients(A, ctx));
  ctx->tuning.summary.clear();
  ctx->tuning.median_seconds = 0;
  ctx->device.apply_seconds = ctx->device.first_apply_seconds = 0;
  ctx->device.apply_count = 0;
  PetscCall(MatFEMGPUMakeBackend(A, ctx));
  PetscCall(MatFEMGPUMakeFacetBackends(A, ctx));
  PetscCall(PetscLogEventBegin(FEMGPU_Symmetry, A, 0, 0, 0));
  if (!ctx->op.residual) PetscCall(MatFEMGPUDetectSymmetry(A, ctx));
  PetscCall(PetscLogEventEnd(FEMGPU_Symmetry, A, 0, 0, 0));
  ctx->op.flops_per_cell = static_cast<PetscLogDouble>(count_flops(*ctx->op.ir, ctx->op.tab->n_points(), ctx->op.tab->test_identity).total());
  ctx->set_up = true;
  ++ctx->setups;  // a new operator for what kept its values (operator_values_key.h)
  PetscCall(PetscLogEventEnd(FEMGPU_SetUp, A, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  ctx->setup_seconds = t1 - t0;
  PetscCall(PetscInfo(A, "fem_gpu set up in %g s: %" PetscInt_FMT " cells, Q = %d (the rule's %d%s)\n", ctx->setup_seconds, ctx->op.maps().n_cells,
                      ctx->op.tab->n_points(), ctx->op.tab->rule.size(), ctx->op.tab->compressed() ? ", compressed" : ""));
  if (ctx->options.view_ir) PetscCall(MatView(A, PETSC_VIEWER_STDOUT_(comm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static std::string describe(const MatFEMGPUContext *ctx)
{
  std::ostringstream os;
  const ActionIR &ir = *ctx->op.ir;
  const Element &e = ctx->op.signature.element;
  os << "  element: P" << e.degree << (e.components > 1 ? " vector (" + std::to_string(e.components) + " components)" : " scalar")
     << " on " << cell_name(ctx->op.signature.cell) << "s, coordinates P" << ctx->op.signature.coordinate_degree
     << (ir.affine ? " (affine)" : " (curved)") << "\n";
  os << "  quadrature: degree " << ir.quadrature_degree << (ir.quadrature_degree_estimated ? " (estimated)" : " (set)") << ", Q = "
     << ctx->op.tab->n_points() << " points (" << ctx->op.tab->rule.family;
  if (ctx->op.tab->compressed())
    os << " rule of " << ctx->op.tab->rule.size() << " points, compressed to " << ctx->op.tab->n_points()
       << (ctx->op.tab->test_identity ? " (the test basis: the tables are reference element matrices)" : "")
       << ": one linear map at every point; -mat_fem_gpu_compress_points 0 keeps the rule's";
  os << ")\n";
  for (const EvalGroup &g : ir.groups) {
    os << "  evaluation group P" << g.element.degree << (g.coordinates ? " coordinates" : "") << ": n = " << g.n_basis
       << ", N_deriv = " << g.terms.size() << ", tables = " << g.derivatives.size() << "\n";
  }
  PointwiseCost pc = pointwise_cost(ir.pointwise);
  os << "  N_eval = " << ir.n_eval() << ", n_test = " << ir.n_test_basis << "; pointwise program: " << pc.per_point
     << " ops per point, " << pc.per_cell << " per cell; FLOPs per cell: " << ctx->op.flops_per_cell << "\n";
  for (size_t i = 0; i < ir.constants.size(); ++i) os << "  constant " << ir.constants[i].name << " = " << ctx->op.constants[i] << "\n";
  for (const CoefficientInfo &c : ir.coefficients) {
    auto it = ctx->op.coefficients.find(c.name);
    const char *how = it == ctx->op.coefficients.end() ? " (unused by a)" : it->second.auxiliary ? " (a field of the DM's auxiliary vector)" : " (set)";
    os << "  coefficient " << c.name << ": " << describe_element(c.element, ctx->op.signature.cell) << how << "\n";
  }
  os << "  symmetric: " << (ctx->op.symmetric ? "yes" : "no");
  if (ctx->op.asymmetry < 0) os << " (declared by -mat_fem_gpu_symmetric)\n";
  else os << " (cell matrix with random coefficients: max |A - A^T| / max |A| = " << ctx->op.asymmetry << ")\n";
  if (!ctx->tuning.summary.empty()) {
    std::istringstream summary(ctx->tuning.summary);
    for (std::string line; std::getline(summary, line);) os << "  " << line << "\n";
  }
  os << MatFEMGPUDescribeFacets(ctx);
  os << "  cells: " << ctx->op.maps().n_cells << " on this rank; backend: " << ctx->device.backend->name() << ", " << ctx->device.backend->schedule() << "\n";
  const std::string occupancy = ctx->device.backend->occupancy();
  if (!occupancy.empty()) os << "  occupancy: " << occupancy << "\n";
  return os.str();
}

PetscErrorCode MatView_FEMGPU(Mat A, PetscViewer viewer)
{
  MatFEMGPUContext *ctx;
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(PetscViewerASCIIPrintf(viewer, "fem_gpu: matrix-free action of the form %s\n",
                                   ctx->op.form_source.empty() ? "(none set)" : ctx->op.form_source.c_str()));
  if (ctx->fields) {  // a DM with several fields: its blocks
    PetscCall(MatFEMGPUFieldsView(ctx, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!ctx->set_up) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  not set up yet (happens at the first MatMult, once the DM and form are known)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  std::string performance;
  PetscCall(MatFEMGPUDescribePerformance(A, ctx, &performance));
  std::istringstream lines(describe(ctx));  // line by line, so each gets the viewer's indentation
  for (std::string line; std::getline(lines, line);) PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", line.c_str()));
  std::istringstream performance_lines(performance);
  for (std::string line; std::getline(performance_lines, line);) PetscCall(PetscViewerASCIIPrintf(viewer, "  %s\n", line.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
