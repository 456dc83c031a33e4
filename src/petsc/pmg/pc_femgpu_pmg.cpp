// -pc_type fem_gpu_pmg: p-multigrid for a fem_gpu operator, built on PETSc's PCMG.
//
// Levels: the operator's form at degrees k > ... > 1 on the same mesh (halving rounded up
// by default: 4 -> 2 -> 1, 3 -> 2 -> 1; -pc_fem_gpu_pmg_degrees replaces it), each a
// fem_gpu Mat with its own kernels (pmg_levels.h), FP32 between the operator and P1 with
// -pc_fem_gpu_pmg_level_precision fp32. Transfers are generated kernels (pmg_transfer.h).
// Smoothers default to Chebyshev with Jacobi (the operators' diagonals, computed on their
// backends); the P1 coarse level is assembled by MatConvert (on the device where the Vecs
// live there) and solved by two GAMG cycles, with the rigid-body near-null space
// (pmg_rigid_body.h) when the field is a vector of the mesh's dimension; or, with
// -pc_fem_gpu_pmg_coarse chebyshev, left a fem_gpu Mat and solved by a fixed number of
// Chebyshev/Jacobi iterations (no assembly, no GAMG setup: a setup of one diagonal and one
// eigenvalue estimate, at the price of a coarse solve that weakens as the mesh is refined);
// the default, auto, takes the latter for 3D P1 levels of 10k to 262k nodes
// (pmg_coarse_rule.h).
// The PC is a PCMG (as PETSc's GAMG is: PCMG's data and operations, with setup, options,
// view and destroy extended), so -pc_mg_*, -mg_levels_* and -mg_coarse_* options apply
// under its prefix unchanged, and PCMGGetSmoother() etc. work on it.
// At every setup (each Newton step, each TS stage) where the operator's values changed
// (operator_values_key.h; otherwise all is kept): the form's coefficients are interpolated
// down the ladder, its constants (TS's shift and time) and MatScale/MatShift edits copied,
// the level operators' states and the finest smoother's (pmg_fine_view.h) bumped
// (Chebyshev re-estimates its eigenvalues) and the coarse matrix re-assembled in place.
#include <petsc/private/pcmgimpl.h>
#include <petscdmplex.h>
#include <petscksp.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/base/option_checks.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/mat/operator_values_key.h"
#include "petsc/pmg/pc_femgpu_pmg.h"
#include "petsc/pmg/pmg_coarse.h"
#include "petsc/pmg/pmg_device_failure.h"
#include "petsc/pmg/pmg_fine_view.h"
#include "petsc/pmg/pmg_levels.h"
#include "petsc/pmg/pmg_transfer.h"

namespace femgpu {

PetscLogEvent FEMGPU_PMGSetUp, FEMGPU_PMGLevels, FEMGPU_PMGLevelDM, FEMGPU_PMGLevelMat, FEMGPU_PMGTransfers;

namespace {

struct Level {
  PetscInt degree = 0;
  DM dm = nullptr;
  Mat A = nullptr;  // the finest: the PC's operator (referenced)
  Mat P = nullptr;  // prolongation from the level below; none on the coarsest
  PMGInjection inject;  // coefficients from the level above
  std::vector<std::pair<std::string, Vec>> coefficients;
};

struct PMG {
  std::vector<PetscInt> degrees;  // -pc_fem_gpu_pmg_degrees: the levels below the operator's
  std::string level_precision = "fp64";  // -pc_fem_gpu_pmg_level_precision: levels between the operator and P1
  std::vector<Level> levels;      // [0] coarsest ... [n - 1] the operator's
  Mat op = nullptr;               // the fem_gpu Mat the levels were built for
  PMGCoarse coarse;               // the coarsest level's solve (pmg_coarse.h; -pc_fem_gpu_pmg_coarse)
  bool values_set = false;        // the levels' values and the coarse level follow `values`
  Mat fine_view = nullptr;        // the finest smoother's operator: `op` with a state of its own (pmg_fine_view.h)
  bool levels_on_host = false;    // after a device failure in the levels: all below the operator on the cpu backend, until PCReset
  std::vector<double> values;     // the operator's values key at the last refresh (operator_values_key.h)
};

// PCMG's own operations, called by ours.
struct MGOperations {
  PetscErrorCode (*setup)(PC) = nullptr;
  PetscErrorCode (*setfromoptions)(PC, OptionItems) = nullptr;
  PetscErrorCode (*reset)(PC) = nullptr;
  PetscErrorCode (*destroy)(PC) = nullptr;
};
MGOperations mg_operations;

PMG *pmg_of(PC pc) { return static_cast<PMG *>(static_cast<PC_MG *>(pc->data)->innerctx); }

PetscErrorCode reset(PMG *p)
{
  PetscFunctionBegin;
  for (Level &l : p->levels) {
    for (auto &kv : l.coefficients) PetscCall(VecDestroy(&kv.second));
    PetscCall(MatDestroy(&l.P));
    PetscCall(MatDestroy(&l.A));
    PetscCall(DMDestroy(&l.dm));
  }
  p->levels.clear();
  PetscCall(MatDestroy(&p->coarse.A));
  p->coarse.on_host = false;
  PetscCall(MatDestroy(&p->fine_view));
  p->op = nullptr;
  p->values.clear();
  p->values_set = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode fem_gpu_operator(PC pc, Mat *op)
{
  Mat A, P;
  PetscBool is;
  PetscFunctionBegin;
  PetscCall(PCGetOperators(pc, &A, &P));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATFEMGPU, &is));
  *op = is ? P : nullptr;
  if (!*op) {
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MATFEMGPU, &is));
    *op = is ? A : nullptr;
  }
  PetscCheck(*op, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG,
             "-pc_type fem_gpu_pmg needs a %s operator or preconditioning matrix (here %s and %s); use -dm_mat_type %s or MatSetType(A, %s)",
             MATFEMGPU, ((PetscObject)A)->type_name, ((PetscObject)P)->type_name, MATFEMGPU, MATFEMGPU);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Level l below the operator: its DM, Mat (set up, so its maps exist) and the transfers
// to the level above.
PetscErrorCode build_level(PC pc, PMG *p, size_t l)
{
  Level &level = p->levels[l], &above = p->levels[l + 1];
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_PMGLevelDM, pc, 0, 0, 0));
  PetscCall(PMGCreateLevelDM(p->levels.back().dm, level.degree, &level.dm));
  PetscCall(PetscLogEventEnd(FEMGPU_PMGLevelDM, pc, 0, 0, 0));
  PetscCall(PetscLogEventBegin(FEMGPU_PMGLevelMat, pc, 0, 0, 0));
  // The coarsest level is assembled or solved to a fixed accuracy: it keeps FP64, as do
  // levels on the host (the cpu backend is the FP64 reference).
  const bool fp64 = l == 0 || p->levels_on_host;
  PetscCall(PMGCreateLevelMat(p->op, level.dm, fp64 ? "fp64" : p->level_precision, &level.A, &level.coefficients, p->levels_on_host ? "cpu" : ""));
  PetscCall(MatFEMGPUSetUp(level.A));
  PetscCall(PetscLogEventEnd(FEMGPU_PMGLevelMat, pc, 0, 0, 0));
  PetscCall(PetscLogEventBegin(FEMGPU_PMGTransfers, pc, 0, 0, 0));
  PetscCall(PMGCreateProlongation(level.A, above.A, &above.P));
  if (!level.coefficients.empty()) PetscCall(PMGCreateInjection(above.A, level.A, &level.inject));
  PetscCall(PetscLogEventEnd(FEMGPU_PMGTransfers, pc, 0, 0, 0));
  PetscCall(PetscInfo(pc, "fem_gpu_pmg: level %zu, P%" PetscInt_FMT "\n", l, level.degree));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PCMG's levels, interpolations, and the smoother and coarse-solver defaults; PCMG's
// setup then reads each level's options (KSPSetFromOptions), which override them.
PetscErrorCode build_mg(PC pc, PMG *p)
{
  const PetscInt n = static_cast<PetscInt>(p->levels.size());
  KSP ksp;
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(p->op, &ctx));
  PetscCall(PCMGSetLevels(pc, n, nullptr));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_EXTERNAL));  // the levels are ours: no products, no DM restriction
  for (PetscInt l = 1; l < n; ++l) {
    PetscCall(PCMGSetInterpolation(pc, l, p->levels[static_cast<size_t>(l)].P));
    PetscCall(PCMGGetSmoother(pc, l, &ksp));
    PetscCall(PMGSetSmootherDefaults(ksp, ctx->op.symmetric));
    if (l < n - 1) PetscCall(KSPSetOperators(ksp, p->levels[static_cast<size_t>(l)].A, p->levels[static_cast<size_t>(l)].A));
    else PetscCall(KSPSetOperators(ksp, p->fine_view, p->fine_view));  // not the PC's operator: PCMG keeps it
  }
  PetscCall(PCMGGetCoarseSolve(pc, &ksp));
  const PetscInt components = ctx->op.signature.element.components;
  PetscCall(PMGChooseCoarse(pc, p->levels.front().A, p->levels.front().dm, components, &p->coarse));
  PetscCall(PMGSetCoarseDefaults(ksp, p->coarse, components));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode build(PC pc, PMG *p, Mat op)
{
  MatFEMGPUContext *ctx;
  std::vector<PetscInt> degrees;
  PetscFunctionBegin;
  PetscCall(reset(p));
  PetscCall(MatFEMGPUGetContext(op, &ctx));
  PetscCheck(!ctx->op.residual, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "-pc_type fem_gpu_pmg: the operator is a residual (rank-1 form), not a matrix");
  PetscCall(PMGLadder(pc, p->degrees, ctx->op.signature.element.degree, &degrees));
  PetscCheck(p->level_precision == "fp64" || ctx->device.backend->name() != "cpu", PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
             "-pc_fem_gpu_pmg_level_precision fp32: the operator runs on the cpu backend, the FP64 reference; FP32 levels need "
             "-mat_fem_gpu_backend opencl or cuda");
  p->op = op;
  p->levels.resize(degrees.size());
  for (size_t l = 0; l < degrees.size(); ++l) p->levels[l].degree = degrees[l];
  Level &finest = p->levels.back();
  finest.A = op;
  finest.dm = ctx->op.dm;
  PetscCall(PetscObjectReference((PetscObject)op));
  PetscCall(PetscObjectReference((PetscObject)ctx->op.dm));
  for (size_t l = p->levels.size() - 1; l-- > 0;) PetscCall(build_level(pc, p, l));
  PetscCall(PMGCreateFineView(op, &p->fine_view));
  PetscCall(build_mg(pc, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The operator's coefficients (e.g. SNES's linearization point) and constants down the ladder.
PetscErrorCode inject_coefficients(PC pc, PMG *p)
{
  MatFEMGPUContext *fine;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(p->op, &fine));
  PetscCall(MatFEMGPURefreshCoefficients(fine));
  std::string listed;  // the constants as they are now (TS binds its shift and time at every stage)
  for (const auto &kv : fine->op.constants_set) listed += " " + kv.first + " = " + std::to_string(kv.second);
  std::string dropped;
  for (size_t l = 0; l + 1 < p->levels.size(); ++l) {
    PetscCall(PMGCopyConstants(p->op, p->levels[l].A));
    PetscCall(PMGCopyEdits(p->op, p->levels[l].A, &dropped));
  }
  if (!listed.empty()) PetscCall(PetscInfo(pc, "fem_gpu_pmg: the levels' constants are the operator's:%s\n", listed.c_str()));
  if (!dropped.empty())
    PetscCall(PetscInfo(pc, "fem_gpu_pmg: the operator's %s is not carried to the levels (it has no meaning on their spaces); they carry its MatScale and MatShift\n",
                        dropped.c_str()));
  for (size_t l = p->levels.size() - 1; l-- > 0;) {
    Level &level = p->levels[l], &above = p->levels[l + 1];
    for (size_t i = 0; i < level.coefficients.size(); ++i) {
      Vec from = l + 2 == p->levels.size() ? fine->op.coefficients.at(level.coefficients[i].first).local : above.coefficients[i].second;
      PetscCall(PMGInject(level.inject, from, level.coefficients[i].second));
    }
    PetscCall(PetscObjectStateIncrease((PetscObject)level.A));  // smoothers set up again
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The levels (built for a new operator), their values, the coarse level and PCMG's setup.
PetscErrorCode set_up_levels(PC pc, PMG *p, Mat op)
{
  PetscFunctionBegin;
  if (p->op != op) {  // the levels' DMs, Mats (their setup is also in FEMGPUSetUp) and transfers
    PetscCall(PetscLogEventBegin(FEMGPU_PMGLevels, pc, op, 0, 0));
    PetscCall(build(pc, p, op));
    PetscCall(PetscLogEventEnd(FEMGPU_PMGLevels, pc, op, 0, 0));
  }
  // The levels' values, the coarse matrix and its solver follow the operator's values;
  // where those did not change (TS with a fixed step on a linear problem: the same shift,
  // a state the operator does not read) all three are kept.
  std::vector<double> values;
  PetscCall(MatFEMGPUOperatorValuesKey(op, &values));
  if (p->values_set && values == p->values) {
    PetscCall(PetscInfo(pc, "fem_gpu_pmg: the operator's values are those of the last setup: the levels, coarse matrix and coarse solver are kept\n"));
  } else {
    PetscCall(inject_coefficients(pc, p));
    KSP coarse;
    PetscCall(PCMGGetCoarseSolve(pc, &coarse));
    PetscCall(PMGSetUpCoarse(pc, coarse, p->levels.front().A, p->levels.front().dm, p->levels.size() == 1, &p->coarse));
    PetscCall(PetscObjectStateIncrease((PetscObject)p->fine_view));  // the finest smoother sets up again
    p->values = values;
    p->values_set = true;
  }
  PetscCall(mg_operations.setup(pc));
  if (p->level_precision == "fp32" && !p->levels_on_host) {
    std::vector<PetscInt> degrees;
    for (const Level &l : p->levels) degrees.push_back(l.degree);
    PetscCall(PMGCheckFP32Levels(pc, degrees));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSetUp_FEMGPUPMG(PC pc)
{
  PMG *p = pmg_of(pc);
  Mat op;
  MatFEMGPUContext *ctx;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(fem_gpu_operator(pc, &op));
  PetscCall(PetscLogEventBegin(FEMGPU_PMGSetUp, pc, op, 0, 0));
  PetscCall(MatFEMGPUSetUp(op));
  PetscCall(MatFEMGPUGetContext(op, &ctx));
  PetscCall(MatGetVecType(op, &vtype));
  // Levels whose kernels, transfers or smoothers run on a device fall back to the host
  // after a device failure there (the coarse level has its own: pmg_coarse.h), all of them:
  // the same forms on the cpu backend, the same iterations.
  const bool on_device = ctx->device.backend->name() != "cpu" || std::string(vtype).find("cuda") != std::string::npos;
  bool failed = false;
  if (on_device && !p->levels_on_host)
    PetscCall(PMGTryOnDevice(pc, "the levels below the operator (their kernels, transfers or smoothers)", [&]() { return set_up_levels(pc, p, op); }, &failed));
  else PetscCall(set_up_levels(pc, p, op));
  if (failed) {
    PetscCall(reset(p));
    PetscCall(mg_operations.reset(pc));  // PCMG's half-built levels; their types and options stay
    p->levels_on_host = true;
    PetscCall(PetscInfo(pc, "fem_gpu_pmg: the levels below the operator on the host: the same forms on the cpu backend (FP64), their transfers there\n"));
    PetscCall(set_up_levels(pc, p, op));
  }
  PetscCall(PetscLogEventEnd(FEMGPU_PMGSetUp, pc, op, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCView_FEMGPUPMG(PC pc, PetscViewer viewer)
{
  PMG *p = pmg_of(pc);
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (p->levels.empty()) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  fem_gpu p-multigrid: not set up\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  std::string degrees;
  for (size_t l = p->levels.size(); l-- > 0;) degrees += "P" + std::to_string(p->levels[l].degree) + (l ? " -> " : "");
  std::string coarse = !p->coarse.assembled ? std::string("coarse level unassembled, Chebyshev/Jacobi")
                                            : std::string("coarse level assembled as ") + (p->coarse.A ? ((PetscObject)p->coarse.A)->type_name : "-");
  if (p->coarse.choice == PMGCoarse::Choice::Auto) coarse += ", chosen by -pc_fem_gpu_pmg_coarse auto";
  PetscCall(PetscViewerASCIIPrintf(viewer, "  fem_gpu p-multigrid: %s (%s%s)%s\n", degrees.c_str(), coarse.c_str(), p->coarse.on_host ? ", on the host after a device failure" : "",
                                   p->levels_on_host ? "; the levels below the operator on the host after a device failure" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSetFromOptions_FEMGPUPMG(PC pc, OptionItems PetscOptionsObject)
{
  PMG *p = pmg_of(pc);
  PetscBool set;
  OptionSource src;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptions((PetscObject)pc, &src.options));
  PetscCall(PCGetOptionsPrefix(pc, &src.prefix));
  PetscCall(mg_operations.setfromoptions(pc, PetscOptionsObject));
  PetscOptionsHeadBegin(PetscOptionsObject, "fem_gpu p-multigrid options");
  PetscCall(read_int_list_option(PetscOptionsObject, src, "-pc_fem_gpu_pmg_degrees",
                                 "Degrees of the levels below the operator's, ending at 1 (default: halving, e.g. 2,1 under P4)", {1, 64},
                                 &p->degrees, &set));
  const char *precisions[] = {"fp64", "fp32"};
  PetscInt precision = p->level_precision == "fp32" ? 1 : 0;
  PetscBool set_precision;
  PetscCall(PetscOptionsEList("-pc_fem_gpu_pmg_level_precision", "Precision of the levels' kernels between the operator's and P1", "", precisions, 2,
                              precisions[precision], &precision, &set_precision));
  p->level_precision = precisions[precision];
  const char *coarse_solvers[] = {"auto", "gamg", "chebyshev"};  // the order of PMGCoarse::Choice
  PetscInt coarse_solver = static_cast<PetscInt>(p->coarse.choice);
  PetscBool set_coarse;
  PetscCall(PetscOptionsEList("-pc_fem_gpu_pmg_coarse",
                              "The P1 level's solve: gamg (assembled, two GAMG cycles), chebyshev (unassembled, 30 Chebyshev/Jacobi iterations) or auto "
                              "(chebyshev for a 3D P1 level of 10k to 262k nodes, else gamg)",
                              "", coarse_solvers, 3, coarse_solvers[coarse_solver], &coarse_solver, &set_coarse));
  const bool coarse_changed = set_coarse && static_cast<PetscInt>(p->coarse.choice) != coarse_solver;
  p->coarse.choice = static_cast<PMGCoarse::Choice>(coarse_solver);
  PetscOptionsHeadEnd();
  if ((set || set_precision || coarse_changed) && p->op) PetscCall(reset(p));  // another ladder or coarse level: build again at the next setup
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCReset_FEMGPUPMG(PC pc)
{
  PetscFunctionBegin;
  PetscCall(reset(pmg_of(pc)));
  pmg_of(pc)->levels_on_host = false;
  PetscCall(mg_operations.reset(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCDestroy_FEMGPUPMG(PC pc)
{
  PetscFunctionBegin;
  PetscCall(reset(pmg_of(pc)));
  delete pmg_of(pc);
  static_cast<PC_MG *>(pc->data)->innerctx = nullptr;
  PetscCall(mg_operations.destroy(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCCreate_FEMGPUPMG(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PetscObjectChangeTypeName((PetscObject)pc, "fem_gpu_pmg"));
  mg_operations = {pc->ops->setup, pc->ops->setfromoptions, pc->ops->reset, pc->ops->destroy};
  PC_MG *mg = static_cast<PC_MG *>(pc->data);
  mg->innerctx = new PMG;
  mg->view = PCView_FEMGPUPMG;
  pc->ops->setup = PCSetUp_FEMGPUPMG;
  pc->ops->setfromoptions = PCSetFromOptions_FEMGPUPMG;
  pc->ops->reset = PCReset_FEMGPUPMG;
  pc->ops->destroy = PCDestroy_FEMGPUPMG;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode PCFEMGPUPMGRegister()
{
  PetscFunctionBegin;
  PetscCall(PCRegister("fem_gpu_pmg", PCCreate_FEMGPUPMG));
  PetscCall(PetscLogEventRegister("FEMGPUPMGSetUp", PC_CLASSID, &FEMGPU_PMGSetUp));
  PetscCall(PetscLogEventRegister("FEMGPUPMGCoarse", PC_CLASSID, &FEMGPU_PMGCoarse));
  PetscCall(PetscLogEventRegister("FEMGPUPMGLevels", PC_CLASSID, &FEMGPU_PMGLevels));
  PetscCall(PetscLogEventRegister("FEMGPUTransfer", MAT_CLASSID, &FEMGPU_Transfer));
  PetscCall(PetscLogEventRegister("FEMGPUTransferData", MAT_CLASSID, &FEMGPU_TransferData));
  PetscCall(PetscLogEventRegister("FEMGPUPMGLevelDM", PC_CLASSID, &FEMGPU_PMGLevelDM));
  PetscCall(PetscLogEventRegister("FEMGPUPMGLevelMat", PC_CLASSID, &FEMGPU_PMGLevelMat));
  PetscCall(PetscLogEventRegister("FEMGPUPMGTransfers", PC_CLASSID, &FEMGPU_PMGTransfers));
  PetscCall(PetscLogEventRegister("FEMGPUPMGRigidBody", PC_CLASSID, &FEMGPU_PMGRigidBody));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
