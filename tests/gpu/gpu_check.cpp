// femgpu-gpu-check: every schedule of a sample, on the GPU, against the CPU reference.
//
// For each operator (the shipped forms, or a form file given by path: its coefficients may
// be in their own elements, read through their own closure maps; a file whose name holds
// "vector" is read for a vector field), dimension and degree: a small connected DMPlex
// box mesh, random non-zero inputs, an output pre-filled with random values; the
// reference action (FP64) against CUDA kernels for SCPWI, tensor-core schedules and the
// cost model's top tiled candidates that the device can run, with the twins the tuning
// moves' rules make of them (tune_moves.h), and the generated diagonal kernel against
// the reference diagonal. Prints one row per kernel and a closing
// line "N passed, M failed". With --compile-only it builds and compiles with NVRTC only
// (no GPU needed).
#include <petscdmplex.h>
#include <petscfe.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>

#include "femgpu.h"
#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"
#include "petsc/plex/coefficient_fields.h"
#include "petsc/plex/plex_maps.h"
#include "reference/reference_diagonal.h"
#include "runtime/cuda_backend.h"
#include "runtime/nvrtc_compile.h"
#include "tune/cost_model.h"
#include "tune/tune_moves.h"
#include "tune/tuner.h"

using namespace femgpu;

namespace {

struct Options {
  std::vector<std::string> ops{"mass", "laplace", "helmholtz", "elasticity", "hyperelasticity"};
  std::vector<int> dims{2, 3};
  PetscInt max_degree[4] = {0, 0, 8, 6};
  PetscInt min_degree = 1, tiled = 5, faces[4] = {0, 0, 4, 2};
  PetscBool compile_only = PETSC_FALSE;
  PetscBool unrolled = PETSC_TRUE;     // also the loops=unrolled twin of every tiled schedule
  std::set<std::string> skip_twins;    // the tuning moves whose twins are left out (-<move> 0)
  PetscBool register_bound = PETSC_TRUE;  // also the tightest groups_per_sm twins (with_register_bound_twins)
  PetscBool mma = PETSC_TRUE;  // also tensor-core schedules (mma_schedules)
  double tolerance = 1e-12;
};

struct Case {
  std::string op;
  int dim, degree;
};

// DM with one P_K field on a structured box; its closure maps and coordinates.
struct Mesh {
  DM dm = nullptr;
  PlexMaps maps;
  std::vector<double> coordinates;
  ~Mesh() { DMDestroy(&dm); }
};

PetscErrorCode build_mesh(const Case &c, int components, const Options &o, Mesh *m)
{
  PetscInt faces[3] = {o.faces[c.dim], o.faces[c.dim], o.faces[c.dim]};
  PetscReal lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
  PetscFE fe;
  Vec coords;
  const PetscScalar *a;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(FEMGPUCreateBoxMesh(PETSC_COMM_SELF, c.dim, faces, lower, upper, &m->dm));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, c.dim, components, PETSC_TRUE, c.degree, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(m->dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(m->dm));
  PetscCall(plex_build_maps(m->dm, &m->maps));
  PetscCall(DMGetCoordinatesLocal(m->dm, &coords));
  PetscCall(VecGetLocalSize(coords, &n));
  PetscCall(VecGetArrayRead(coords, &a));
  m->coordinates.assign(a, a + n);
  PetscCall(VecRestoreArrayRead(coords, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// With -register_bound, the twins of the first SCPWI schedule, of the model's best tiled
// one and of the last schedule listed at the tightest register bound the SM allows
// (the most groups per SM: the fewest registers, the most spill code).
std::vector<Schedule> with_register_bound_twins(std::vector<Schedule> out, size_t first_tiled, bool on)
{
  if (!on) return out;
  const size_t n = out.size();
  for (size_t i = 0; i < n; ++i)
    if (i == 0 || i == first_tiled || i + 1 == n) {
      const int groups = std::min(kMaxGroupsPerSM, kMaxThreadsPerSM / threads_per_group(out[i]));
      out.push_back(out[i].with_groups_per_sm(groups));
    }
  return out;
}

// The schedules of `out` and the twins the tuning moves' rules (tune_moves.h's
// with_rule_twins) make of them that fit the device's shared memory. With -unrolled, the
// tiled schedules with compiler loops are not twinned: tuning times unrolled ones
// (TuneSettings::tiled_loops), and their twins are there.
std::vector<Schedule> with_move_twins(const std::vector<Schedule> &out, const ActionIR &ir, long long shared_limit, const Options &o)
{
  std::vector<Schedule> originals;
  for (const Schedule &s : out)
    if (!o.unrolled || s.strategy() != Strategy::Tiled || s.loops() == Loops::Unrolled) originals.push_back(s);
  std::vector<Schedule> all = out;
  const std::vector<Schedule> twinned = with_rule_twins(originals, o.skip_twins);
  for (size_t i = originals.size(); i < twinned.size(); ++i)
    if (shared_memory_bytes(twinned[i], ir) <= shared_limit) all.push_back(twinned[i]);
  return all;
}

// Tensor-core schedules (FP64) of three shapes: one quadrature tile of 8 points with
// more warps than row tiles, 16 cells over 2 warps, and 8 warps on tiles of up to 32
// points (the quad_steps move's rule twins them with the quadrature step by step); with a mesh
// whose cell count is no multiple of 8 (-faces 5,3), the last group is partly empty.
// Where the test table is the identity, also the operands in registers (1, 2 and 4 warps,
// the 2-warp one with own=plain where the element has own DOFs).
std::vector<Schedule> mma_schedules(const ActionIR &ir, int Q, long long shared_limit, bool test_identity)
{
  const int q8 = (Q + 7) / 8 * 8;
  std::vector<Schedule> out;
  for (const MmaSizes &m : {MmaSizes{8, 4, 8}, MmaSizes{16, 2, std::min(16, q8)}, MmaSizes{8, 8, std::min(32, q8)}}) {
    const Schedule s = Schedule::tensor_core(m);
    if (shared_memory_bytes(s, ir) <= shared_limit) out.push_back(s);
  }
  if (!test_identity) return out;
  for (int warps : {1, 2, 4}) {
    MmaSizes m{8 * warps, warps, 8};
    m.operands = MmaOperands::Registers;
    out.push_back(Schedule::tensor_core(m));
    if (warps == 2 && lagrange_interior_dimension(ir.dim, ir.signature.element.degree) > 0) out.push_back(out.back().with_own_dofs(OwnDofs::Plain));
  }
  return out;
}

// The assembled operator where the form allows it (FP64, no coefficients): its pattern,
// device sum and SpMV against the reference like every kernel.
std::vector<Schedule> with_assembled(const ActionIR &ir, int Q, std::vector<Schedule> out)
{
  if (!assembled_candidates(ir, Q, Precision::FP64).empty()) out.push_back(Schedule::assembled());
  return out;
}

// SCPWI (also at 64 work-items, several groups a mesh with the last partly empty, and at
// 128 with separate and merged constant-memory tables, where they fit; for vector forms
// also with one lane per component), tensor-core schedules, the cost model's two best
// tiled candidates and random others from the search space (fixed seed), so the sample
// spans small and large tiles, each also with loops=unrolled (unless -unrolled 0); then
// the twins each tuning move's rule makes of them (with_move_twins: shared DOFs, warp and
// staged scatter, own=plain, interleaved tables, quad=steps; -<move> 0 leaves a move's
// out); with -register_bound, after all, the register-bound twins of three.
std::vector<Schedule> sample_schedules(const ActionIR &ir, int Q, const Options &o, long long shared_limit, bool test_identity)
{
  std::vector<Schedule> out{Schedule::single_cell_per_work_item(), Schedule::single_cell_per_work_item(64)};
  if (o.mma)
    for (const Schedule &s : mma_schedules(ir, Q, shared_limit, test_identity)) out.push_back(s);
  for (Tables t : {Tables::Constant, Tables::MergedConstant}) {
    const Schedule s = Schedule::single_cell_per_work_item(128).with_tables(t);
    if (constant_table_bytes(s, ir, Q) <= kMaxConstantTableBytes) out.push_back(s);
  }
  // Vector forms: one lane per component, global and constant tables.
  const int C = ir.signature.element.components;
  if (C > 1) {
    out.push_back(Schedule::single_cell_per_work_item(32).with_lanes(C));
    const Schedule s = Schedule::single_cell_per_work_item(64).with_lanes(C).with_tables(Tables::Constant);
    if (constant_table_bytes(s, ir, Q) <= kMaxConstantTableBytes) out.push_back(s);
  }
  KernelShape shape = KernelShape::from(ir, Q);
  DeviceParams d;
  d.local_max_per_group = static_cast<double>(shared_limit);
  SearchSpace space = enumerate_tiles(shape, SearchLimits{}, d);
  const size_t best = std::min<size_t>(2, static_cast<size_t>(o.tiled)), first_tiled = out.size();
  if (!space.candidates.empty()) {
    for (const Tiles &t : rank_tiles(shape, space.candidates, d, best)) out.push_back(Schedule::tiled(t));
    std::mt19937 rng(static_cast<unsigned>(Q * 7 + shape.n_test));
    std::uniform_int_distribution<size_t> pick(0, space.candidates.size() - 1);
    for (PetscInt k = static_cast<PetscInt>(best); k < o.tiled; ++k) out.push_back(Schedule::tiled(space.candidates[pick(rng)]));
  }
  // Each tiled schedule also with its private-array loops unrolled (what tuning times).
  if (o.unrolled)
    for (size_t i = first_tiled, n = out.size(); i < n; ++i) out.push_back(out[i].with_loops(Loops::Unrolled));
  return with_register_bound_twins(with_move_twins(out, ir, shared_limit, o), first_tiled, o.register_bound);
}

double relative_error(const std::vector<double> &a, const std::vector<double> &b)
{
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return INFINITY;
    num = std::max(num, std::fabs(a[i] - b[i]));
    den = std::max(den, std::fabs(b[i]));
  }
  return num / den;
}

// The generated diagonal kernel (femgpu_diagonal) against the reference diagonal.
PetscErrorCode check_diagonal(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, size_t n, const std::vector<double> &prefill,
                              const Options &o, int *passed, int *failed)
{
  std::ostringstream row;
  PetscFunctionBeginUser;
  row << "  diagonal kernel | ";
  try {
    if (o.compile_only) {
      nvrtc_compile(kernel::emit_cuda(kernel::build_diagonal(ir, tab)), "check", "sm_90");
      row << "compiled";
      ++*passed;
    } else {
      std::vector<double> ref = prefill, out = prefill;
      reference_diagonal(ir, tab, arrays, ref.data());
      CudaBackend backend(ir, tab, Schedule::single_cell_per_work_item(), 0);
      backend.diagonal(arrays, n, out.data());
      const double err = relative_error(out, ref);
      const bool ok = err <= o.tolerance;
      row << "rel err " << err << (ok ? " ok" : " FAILED");
      ++*(ok ? passed : failed);
    }
  } catch (const std::exception &e) {
    row << "ERROR " << e.what();
    ++*failed;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", row.str().c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Random values of every coefficient, each in its own element: one on the field's element
// reads through the field's map; another through the map of a clone of the mesh with
// that element (as the Mat reads an auxiliary field).
struct CoefficientValues {
  std::vector<std::vector<double>> values;
  std::vector<std::vector<int>> maps;
};

PetscErrorCode coefficient_values(const ActionIR &ir, const Mesh &m, std::mt19937 &rng, CoefficientValues *cv)
{
  std::uniform_real_distribution<double> u(-1, 1);
  PetscFunctionBeginUser;
  for (const CoefficientInfo &ci : ir.coefficients) {
    PetscInt size = m.maps.local_size, cells, width;
    std::vector<int> map(m.maps.all.begin(), m.maps.all.end());
    if (ci.element != ir.signature.element) {
      DM cdm;
      PetscFE fe;
      PetscCall(DMClone(m.dm, &cdm));
      PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, ir.dim, ci.element.components, PETSC_TRUE, ci.element.degree, PETSC_DETERMINE, &fe));
      PetscCall(DMSetField(cdm, 0, nullptr, (PetscObject)fe));
      PetscCall(PetscFEDestroy(&fe));
      PetscCall(DMCreateDS(cdm));
      PetscCall(plex_field_map(cdm, 0, &cells, &width, &map, &size));
      PetscCall(DMDestroy(&cdm));
    }
    cv->values.emplace_back(static_cast<size_t>(size));
    for (double &x : cv->values.back()) x = 0.2 * u(rng);
    cv->maps.push_back(std::move(map));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run_case(const Case &c, const Options &o, int *passed, int *failed)
{
  const bool file = c.op.size() > 4 && c.op.compare(c.op.size() - 4, 4, ".ufl") == 0;
  const bool vector = c.op == "elasticity" || c.op == "hyperelasticity" || (file && c.op.find("vector") != std::string::npos);
  const int C = vector ? c.dim : 1;
  FormSignature sig{c.dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{c.degree, C}, 1};
  ParsedForms forms = parse_form_file(file ? c.op : default_share_dir() + "/forms/" + c.op + ".ufl", sig);
  ActionIR ir = lower_form(forms.a);
  Tabulation tab = tabulate_action(ir, default_share_dir());
  Mesh mesh;
  PetscFunctionBeginUser;
  PetscCall(build_mesh(c, C, o, &mesh));
  const size_t n = static_cast<size_t>(mesh.maps.local_size);
  std::mt19937 rng(static_cast<unsigned>(c.dim * 100 + c.degree));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> trial(n), prefill(n);
  for (size_t i = 0; i < n; ++i) trial[i] = u(rng), prefill[i] = u(rng);
  CoefficientValues w;
  PetscCall(coefficient_values(ir, mesh, rng, &w));
  ActionArrays arrays;
  arrays.n_cells = static_cast<int>(mesh.maps.n_cells);
  arrays.coordinates = {mesh.coordinates.data(), mesh.maps.coordinates->data()};
  arrays.trial = {trial.data(), mesh.maps.all.data()};
  for (size_t i = 0; i < ir.coefficients.size(); ++i) arrays.coefficients.push_back({w.values[i].data(), w.maps[i].data()});
  arrays.test_map = mesh.maps.all.data();
  for (const ConstantInfo &k : ir.constants) arrays.constants.push_back(k.default_value + 0.25);
  std::vector<double> ref = prefill;
  if (!o.compile_only) reference_action(ir, tab, arrays, ref.data());
  const long long shared_limit = o.compile_only ? 227 * 1024 : cuda::open_device(0).shared_per_group_optin;
  for (const Schedule &s : with_assembled(ir, tab.n_points(), sample_schedules(ir, tab.n_points(), o, shared_limit, tab.test_identity))) {
    std::ostringstream row;
    row << c.op << " " << c.dim << "D P" << c.degree << " Q=" << tab.n_points() << " | " << to_string(s) << " | ";
    try {
      auto t0 = std::chrono::steady_clock::now();
      if (o.compile_only) {
        CudaKernel compiled(ir, tab, s, "sm_90", shared_limit, 1024);  // NVRTC only, as the tuner's compile threads
        row << "compiled in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s";
        ++*passed;
      } else {
        CudaBackend backend(ir, tab, s, 0);
        std::vector<double> out = prefill;
        backend.apply(arrays, n, out.data());
        const double err = relative_error(out, ref);
        const bool ok = err <= o.tolerance;
        row << "rel err " << err << (ok ? " ok" : " FAILED") << " | regs " << backend.resources().registers << " spill "
            << backend.resources().local_bytes << " B | shared " << shared_memory_bytes(s, ir) << " B";
        ++*(ok ? passed : failed);
      }
    } catch (const std::exception &e) {
      row << "ERROR " << e.what();
      ++*failed;
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", row.str().c_str()));
  }
  if (ir.rank == 2) PetscCall(check_diagonal(ir, tab, arrays, n, prefill, o, passed, failed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  Options o;
  int passed = 0, failed = 0;
  char ops[256] = "";
  PetscBool set;
  PetscInt nd = 2, dims[2] = {2, 3}, n = 3;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "femgpu-gpu-check: GPU kernels vs the CPU reference action"));
  PetscOptionsBegin(PETSC_COMM_WORLD, "", "femgpu-gpu-check options", "");
  PetscCall(PetscOptionsString("-ops", "comma-separated operators", "", "", ops, sizeof(ops), &set));
  if (set) {
    o.ops.clear();
    std::stringstream ss(ops);
    for (std::string t; std::getline(ss, t, ',');) o.ops.push_back(t);
  }
  PetscCall(PetscOptionsIntArray("-dims", "dimensions", "", dims, &nd, &set));
  if (set) o.dims.assign(dims, dims + nd);
  PetscCall(PetscOptionsInt("-min_degree", "lowest degree", "", o.min_degree, &o.min_degree, nullptr));
  PetscCall(PetscOptionsInt("-max_degree_2d", "highest degree in 2D", "", o.max_degree[2], &o.max_degree[2], nullptr));
  PetscCall(PetscOptionsInt("-max_degree_3d", "highest degree in 3D", "", o.max_degree[3], &o.max_degree[3], nullptr));
  PetscCall(PetscOptionsInt("-tiled", "tiled schedules per case (the cost model's best)", "", o.tiled, &o.tiled, nullptr));
  n = 2;
  PetscInt f[2] = {o.faces[2], o.faces[3]};
  PetscCall(PetscOptionsIntArray("-faces", "box intervals per direction in 2D, 3D", "", f, &n, nullptr));
  o.faces[2] = f[0], o.faces[3] = f[1];
  PetscCall(PetscOptionsBool("-unrolled", "also check every tiled schedule with loops=unrolled", "", o.unrolled, &o.unrolled, nullptr));
  for (const TuneMove &m : tune_moves().moves) {  // -shared_dofs, -warp_scatter, ...: each move with a twin rule
    if (!m.twin) continue;
    PetscBool on = PETSC_TRUE;
    const std::string option = std::string("-") + m.name;
    const std::string help = std::string("also check the twins of the sample by the ") + m.name + " move's rule (" + m.twin->words + ")";
    PetscCall(PetscOptionsBool(option.c_str(), help.c_str(), "", on, &on, nullptr));
    if (!on) o.skip_twins.insert(m.name);
  }
  PetscCall(PetscOptionsBool("-register_bound", "also check the tightest groups_per_sm twins of the first SCPWI, the best tiled and the last schedule",
                             "", o.register_bound, &o.register_bound, nullptr));
  PetscCall(PetscOptionsBool("-mma", "also check tensor-core (mma) schedules of three shapes (and their quad=steps twins: -quad_steps)", "", o.mma, &o.mma, nullptr));
  PetscCall(PetscOptionsBool("-compile_only", "only compile with NVRTC (no GPU)", "", o.compile_only, &o.compile_only, nullptr));
  PetscOptionsEnd();
  if (!o.compile_only) {
    cuda::DeviceInfo d = cuda::open_device(0);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s (%s, %d SMs)\n", d.name.c_str(), d.arch().c_str(), d.multiprocessors));
  }
  for (const std::string &op : o.ops)
    for (int dim : o.dims)
      for (int k = static_cast<int>(o.min_degree); k <= o.max_degree[dim]; ++k) PetscCall(run_case({op, dim, k}, o, &passed, &failed));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%d passed, %d failed\n", passed, failed));
  PetscCall(PetscFinalize());
  return failed ? 1 : 0;
}
