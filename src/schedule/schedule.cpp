// Schedule factories, validation against one form, and the paper's section 3.2.4
// memory quantities.
#include "schedule/schedule.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <stdexcept>

namespace femgpu {

int bytes_per_real(Precision p) { return p == Precision::FP64 ? 8 : 4; }

Schedule Schedule::single_cell_per_work_item(int work_group_size, Precision precision)
{
  Schedule s;
  s.strategy_ = Strategy::SingleCellPerWorkItem;
  s.work_group_size_ = work_group_size;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::tiled(const TileSizes &tiles, Precision precision)
{
  Schedule s;
  s.strategy_ = Strategy::Tiled;
  s.tiles_ = tiles;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::with_precision(Precision precision) const
{
  Schedule s = *this;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::with_dofs(Dofs dofs) const
{
  Schedule s = *this;
  s.dofs_ = dofs;
  return s;
}

Schedule Schedule::with_cell_values(CellValues where) const
{
  Schedule s = *this;
  s.cell_values_ = where;
  return s;
}

Schedule Schedule::with_tables(Tables tables) const
{
  Schedule s = *this;
  s.tables_ = tables;
  return s;
}

Schedule Schedule::with_loops(Loops loops) const
{
  Schedule s = *this;
  s.loops_ = loops;
  return s;
}

Schedule Schedule::with_scatter(Scatter scatter) const
{
  Schedule s = *this;
  s.scatter_ = scatter;
  return s;
}

Schedule Schedule::with_groups_per_sm(int groups) const
{
  Schedule s = *this;
  s.groups_per_sm_ = groups;
  return s;
}

Schedule Schedule::with_tiles(const TileSizes &tiles) const
{
  if (strategy_ != Strategy::Tiled) throw std::logic_error("with_tiles: tile sizes are a tiled schedule's parameters");
  Schedule s = *this;
  s.tiles_ = tiles;
  return s;
}

Schedule Schedule::with_cells_per_group(int cells) const
{
  if (strategy_ != Strategy::Tiled) throw std::logic_error("with_cells_per_group: N_c is a tiled schedule's parameter");
  TileSizes t = tiles_;
  t.cells_per_group = cells;
  return with_tiles(t);
}

Schedule Schedule::with_lanes(int lanes_per_cell) const
{
  Schedule s = *this;
  s.lanes_ = lanes_per_cell;
  return s;
}

long long table_words(const ActionIR &ir, int n_quadrature_points, bool merged)
{
  std::map<std::pair<int, std::array<int, 3>>, long long> distinct;
  long long words = static_cast<long long>(ir.test_derivatives.size()) * ir.n_test_basis;
  for (const EvalGroup &g : ir.groups) {
    words += static_cast<long long>(g.derivatives.size()) * g.n_basis;
    for (const auto &alpha : g.derivatives) distinct[{g.element.degree, alpha}] = g.n_basis;
  }
  for (const auto &alpha : ir.test_derivatives) distinct[{ir.signature.element.degree, alpha}] = ir.n_test_basis;
  if (merged) {
    words = 0;
    for (const auto &kv : distinct) words += kv.second;
  }
  return words * n_quadrature_points;
}

long long constant_table_bytes(const Schedule &s, const ActionIR &ir, int n_quadrature_points)
{
  if (s.tables() != Tables::Constant && s.tables() != Tables::MergedConstant) return 0;
  return table_words(ir, n_quadrature_points, s.tables() == Tables::MergedConstant) * bytes_per_real(s.precision());
}

namespace {

// "<name> = <value> must be <relation> <limit> (<why>)"
void require(bool ok, const std::string &name, long long value, const std::string &relation, long long limit,
             const std::string &why)
{
  if (ok) return;
  std::ostringstream os;
  os << "invalid schedule: " << name << " = " << value << " must be " << relation << " " << limit << " (" << why << ")";
  throw std::invalid_argument(os.str());
}

void require_range(const std::string &name, long long value, long long limit, const std::string &why)
{
  require(value >= 1, name, value, ">=", 1, "a loop needs a positive tile");
  require(value <= limit, name, value, "<=", limit, why);
}

void validate_tiles(const TileSizes &t, const ActionIR &ir, int Q)
{
  require_range("cells_per_group", t.cells_per_group, kMaxThreadsPerGroup, "threads per group limit");
  require_range("items_per_cell", t.items_per_cell, kMaxThreadsPerGroup, "threads per group limit");
  const long long threads = static_cast<long long>(t.cells_per_group) * t.items_per_cell;
  require(threads <= kMaxThreadsPerGroup, "cells_per_group*items_per_cell", threads, "<=", kMaxThreadsPerGroup,
          "threads per group limit");
  require_range("quad_tile", t.quad_tile, Q, "the number of quadrature points");
  require_range("eval_rows", t.eval_rows, t.quad_tile, "quad_tile, the loop it tiles");
  require(t.eval_cols.size() == ir.groups.size(), "eval_cols.size()", static_cast<long long>(t.eval_cols.size()), "==",
          static_cast<long long>(ir.groups.size()), "one column tile per evaluation group");
  for (size_t g = 0; g < ir.groups.size(); ++g)
    require_range("eval_cols[" + std::to_string(g) + "]", t.eval_cols[g], ir.groups[g].n_basis,
                  "the group's basis size n");
  require_range("quad_rows", t.quad_rows, ir.n_test_basis, "the test basis size n_W");
  require_range("quad_cols", t.quad_cols, t.quad_tile, "quad_tile, the loop it tiles");
}

}  // namespace

void validate(const Schedule &s, const ActionIR &ir, int n_quadrature_points, long long max_shared_bytes)
{
  require(n_quadrature_points >= 1, "number of quadrature points", n_quadrature_points, ">=", 1, "an empty rule");
  if (s.tables() == Tables::Interleaved && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: tables=interleaved is for tiled kernels (the layout of their shared prefetch buffer); SCPWI "
                                "reads its tables from global or constant memory");
  if (s.tables() == Tables::Constant || s.tables() == Tables::MergedConstant) {
    if (s.strategy() != Strategy::SingleCellPerWorkItem)
      throw std::invalid_argument("invalid schedule: constant tables are for SCPWI; tiled kernels prefetch their tables into shared memory");
    const long long bytes = constant_table_bytes(s, ir, n_quadrature_points);
    require(bytes <= kMaxConstantTableBytes, "constant table bytes", bytes, "<=", kMaxConstantTableBytes, "constant memory");
  }
  if (s.groups_per_sm() > 0) {
    require(s.groups_per_sm() <= kMaxGroupsPerSM, "groups_per_sm", s.groups_per_sm(), "<=", kMaxGroupsPerSM, "groups one SM holds at once");
    const long long resident = static_cast<long long>(s.groups_per_sm()) * threads_per_group(s);
    require(resident <= kMaxThreadsPerSM, "groups_per_sm*threads per group", resident, "<=", kMaxThreadsPerSM,
            "threads one SM holds at once");
  }
  if (s.cell_values() == CellValues::Shared && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: cells=shared is for tiled kernels, whose cells' work-items read the per-cell values "
                                "in turns; an SCPWI work-item holds its own cell's");
  if (s.loops() != Loops::Compiler && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: loops=unrolled is for tiled kernels; SCPWI's loops over basis functions are unrolled already");
  if (s.strategy() == Strategy::SingleCellPerWorkItem) {
    require_range("work_group_size", s.work_group_size(), kMaxThreadsPerGroup, "threads per group limit");
    if (s.lanes() != 1) {
      const int C = ir.signature.element.components;
      require(C > 1, "lanes", s.lanes(), "==", 1, "the form's test element has one component");
      require(s.lanes() == C, "lanes", s.lanes(), "==", C, "one lane per component of the test element");
      require(s.dofs() == Dofs::Registers, "lanes", s.lanes(), "==", 1, "dofs=shared keeps whole cells in shared memory");
      const long long threads = static_cast<long long>(s.work_group_size()) * s.lanes();
      require(threads <= kMaxThreadsPerGroup, "work_group_size*lanes", threads, "<=", kMaxThreadsPerGroup, "threads per group limit");
    }
    require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=", max_shared_bytes,
            "one column of DOFs and outputs per work-item (dofs=shared), or the lanes' exchange buffer");
    return;
  }
  validate_tiles(s.tiles(), ir, n_quadrature_points);
  require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=",
          max_shared_bytes, "prefetch buffer (Eq. 5) + e[N_c][T^Q][N_eval], with any shared DOF tiles and per-cell values");
}

std::string to_string(const Schedule &s)
{
  std::ostringstream os;
  if (s.strategy() == Strategy::SingleCellPerWorkItem) {
    os << "scpwi wg=" << s.work_group_size();
    if (s.lanes() != 1) os << " lanes=" << s.lanes();
  } else {
    const TileSizes &t = s.tiles();
    os << "tiled nc=" << t.cells_per_group << " nwi=" << t.items_per_cell << " tq=" << t.quad_tile
       << " ter=" << t.eval_rows << " tec=[";
    for (size_t g = 0; g < t.eval_cols.size(); ++g) os << (g ? "," : "") << t.eval_cols[g];
    os << "] tqr=" << t.quad_rows << " tqc=" << t.quad_cols;
  }
  if (s.dofs() == Dofs::Shared) os << " dofs=shared";
  if (s.cell_values() == CellValues::Shared) os << " cells=shared";
  if (s.loops() == Loops::Unrolled) os << " loops=unrolled";
  if (s.tables() == Tables::Constant) os << " tables=constant";
  if (s.tables() == Tables::MergedConstant) os << " tables=constant-merged";
  if (s.tables() == Tables::Interleaved) os << " tables=interleaved";
  if (s.scatter() == Scatter::Warp) os << " scatter=warp";
  if (s.groups_per_sm() > 0) os << " groups_per_sm=" << s.groups_per_sm();
  os << (s.precision() == Precision::FP64 ? " fp64" : " fp32");
  return os.str();
}

namespace {

[[noreturn]] void unreadable(const std::string &text, const std::string &why)
{
  throw std::invalid_argument("cannot read the schedule \"" + text + "\": " + why);
}

// "<name>=<positive int>" as the whole token.
int read_size(const std::string &text, const std::string &token, const std::string &name)
{
  const std::string prefix = name + "=";
  if (token.compare(0, prefix.size(), prefix) != 0) unreadable(text, "expected " + prefix + "N, found \"" + token + "\"");
  const std::string digits = token.substr(prefix.size());
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos || digits[0] == '0')
    unreadable(text, name + " must be a positive integer, is \"" + digits + "\"");
  return std::stoi(digits);
}

std::vector<int> read_size_list(const std::string &text, const std::string &token, const std::string &name)
{
  const std::string prefix = name + "=[";
  if (token.compare(0, prefix.size(), prefix) != 0 || token.back() != ']')
    unreadable(text, "expected " + prefix + "a,b,...], found \"" + token + "\"");
  std::vector<int> sizes;
  std::istringstream items(token.substr(prefix.size(), token.size() - prefix.size() - 1));
  for (std::string item; std::getline(items, item, ',');) sizes.push_back(read_size(text, name + "=" + item, name));
  return sizes;
}

}  // namespace

Schedule parse_schedule(const std::string &text)
{
  std::istringstream in(text);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  if (tokens.empty()) unreadable(text, "it is empty");
  const std::string &last = tokens.back();
  if (last != "fp64" && last != "fp32") unreadable(text, "it must end with fp64 or fp32");
  const Precision precision = last == "fp64" ? Precision::FP64 : Precision::FP32;
  int groups_per_sm = 0;
  if (tokens.size() >= 2 && tokens[tokens.size() - 2].rfind("groups_per_sm=", 0) == 0) {
    groups_per_sm = read_size(text, tokens[tokens.size() - 2], "groups_per_sm");
    tokens.erase(tokens.end() - 2);
  }
  const bool warp_scatter = tokens.size() >= 2 && tokens[tokens.size() - 2] == "scatter=warp";
  if (warp_scatter) tokens.erase(tokens.end() - 2);
  Tables tables = Tables::Global;
  if (tokens.size() >= 2) {
    const std::string &t = tokens[tokens.size() - 2];
    if (t == "tables=constant" || t == "tables=constant-merged" || t == "tables=interleaved") {
      tables = t == "tables=constant" ? Tables::Constant : t == "tables=constant-merged" ? Tables::MergedConstant : Tables::Interleaved;
      tokens.erase(tokens.end() - 2);
    }
  }
  const bool unrolled = tokens.size() >= 2 && tokens[tokens.size() - 2] == "loops=unrolled";
  if (unrolled) tokens.erase(tokens.end() - 2);
  const bool cells_shared = tokens.size() >= 2 && tokens[tokens.size() - 2] == "cells=shared";
  if (cells_shared) tokens.erase(tokens.end() - 2);
  const bool shared = tokens.size() >= 2 && tokens[tokens.size() - 2] == "dofs=shared";
  if (shared) tokens.erase(tokens.end() - 2);
  Schedule s = Schedule::single_cell_per_work_item();
  if (tokens[0] == "scpwi" && (tokens.size() == 3 || tokens.size() == 4)) {
    s = Schedule::single_cell_per_work_item(read_size(text, tokens[1], "wg"), precision);
    if (tokens.size() == 4) s = s.with_lanes(read_size(text, tokens[2], "lanes"));
  } else if (tokens[0] == "tiled" && tokens.size() == 9) {
    TileSizes t;
    t.cells_per_group = read_size(text, tokens[1], "nc");
    t.items_per_cell = read_size(text, tokens[2], "nwi");
    t.quad_tile = read_size(text, tokens[3], "tq");
    t.eval_rows = read_size(text, tokens[4], "ter");
    t.eval_cols = read_size_list(text, tokens[5], "tec");
    t.quad_rows = read_size(text, tokens[6], "tqr");
    t.quad_cols = read_size(text, tokens[7], "tqc");
    s = Schedule::tiled(t, precision);
  } else {
    unreadable(text, "expected \"scpwi wg=N [lanes=C] [dofs=shared] [tables=constant[-merged]] [scatter=warp] [groups_per_sm=K] fpXX\" or \"tiled nc=.. nwi=.. tq=.. ter=.. "
                     "tec=[..] tqr=.. tqc=.. [dofs=shared] [cells=shared] [loops=unrolled] [tables=interleaved] [scatter=warp] [groups_per_sm=K] fpXX\"");
  }
  if (shared) s = s.with_dofs(Dofs::Shared);
  if (cells_shared) s = s.with_cell_values(CellValues::Shared);
  if (unrolled) s = s.with_loops(Loops::Unrolled);
  s = s.with_tables(tables);
  if (warp_scatter) s = s.with_scatter(Scatter::Warp);
  s = s.with_groups_per_sm(groups_per_sm);
  if (to_string(s) != text) unreadable(text, "not in the canonical form \"" + to_string(s) + "\"");
  return s;
}

int threads_per_group(const Schedule &s)
{
  if (s.strategy() == Strategy::SingleCellPerWorkItem) return s.work_group_size() * s.lanes();
  return s.tiles().cells_per_group * s.tiles().items_per_cell;
}

int cells_per_group(const Schedule &s)
{
  return s.strategy() == Strategy::SingleCellPerWorkItem ? s.work_group_size() : s.tiles().cells_per_group;
}

int odd_stride(int words) { return words | 1; }

long long prefetch_buffer_words(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() != Strategy::Tiled) return 0;
  const TileSizes &t = s.tiles();
  long long words = static_cast<long long>(ir.test_derivatives.size()) * t.quad_rows * odd_stride(t.quad_cols);
  for (size_t g = 0; g < ir.groups.size() && g < t.eval_cols.size(); ++g)
    words = std::max(words, static_cast<long long>(ir.groups[g].derivatives.size()) * t.eval_rows * odd_stride(t.eval_cols[g]));
  return words;
}

namespace {

// Words of the Dofs::Shared arrays: tiled, N_c column tiles per function; SCPWI, one
// column per work-item of every evaluated function but the coordinates (which the
// Jacobian reads from registers) and of the output.
long long shared_dof_words(const Schedule &s, const ActionIR &ir)
{
  if (s.dofs() != Dofs::Shared) return 0;
  long long words = 0;
  if (s.strategy() == Strategy::Tiled) {
    for (const EvalGroup &g : ir.groups)
      for (int f : g.functions) words += static_cast<long long>(s.tiles().cells_per_group) * dof_tile_stride(s, ir, f);
    return words;
  }
  for (const EvalGroup &g : ir.groups)
    for (int f : g.functions)
      if (f != kCoordinates) words += static_cast<long long>(g.n_basis) * g.element.components;
  words += static_cast<long long>(ir.n_test_basis) * ir.signature.element.components;
  return words * s.work_group_size();
}

}  // namespace

int dof_tile_stride(const Schedule &s, const ActionIR &ir, int function)
{
  for (size_t g = 0; g < ir.groups.size() && g < s.tiles().eval_cols.size(); ++g)
    for (int f : ir.groups[g].functions)
      if (f == function) return odd_stride(s.tiles().eval_cols[g] * ir.groups[g].element.components);
  throw std::invalid_argument("dof_tile_stride: function " + std::to_string(function) + " is in no evaluation group");
}

bool lane_split(const ActionIR &ir, int function)
{
  const int C = ir.signature.element.components;
  const int g = ir.group_of_function(function);
  return C > 1 && function != kCoordinates && g >= 0 && ir.groups[static_cast<size_t>(g)].element.components == C;
}

std::vector<LaneRow> lane_exchange_rows(const ActionIR &ir)
{
  std::vector<LaneRow> rows;
  for (size_t g = 0; g < ir.groups.size(); ++g)
    for (const EvalTerm &t : ir.groups[g].terms) {
      const LaneRow r{static_cast<int>(g), t.function, t.derivative};
      const bool seen = std::any_of(rows.begin(), rows.end(), [&](const LaneRow &o) {
        return o.group == r.group && o.function == r.function && o.derivative == r.derivative;
      });
      if (lane_split(ir, t.function) && !seen) rows.push_back(r);
    }
  return rows;
}

long long lane_exchange_words(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() != Strategy::SingleCellPerWorkItem || s.lanes() == 1) return 0;
  return 2LL * static_cast<long long>(lane_exchange_rows(ir).size()) * s.lanes() * s.work_group_size();
}

long long shared_memory_bytes(const Schedule &s, const ActionIR &ir)
{
  long long words = lane_exchange_words(s, ir);
  if (s.strategy() == Strategy::Tiled) {
    words += prefetch_buffer_words(s, ir) + evaluation_words(s, ir);
    if (!dofs_alias_evaluations(s)) words += shared_dof_words(s, ir);
    if (s.cell_values() == CellValues::Shared) words += static_cast<long long>(s.tiles().cells_per_group) * cell_value_stride(ir);
  } else {
    words += shared_dof_words(s, ir);
  }
  return words * bytes_per_real(s.precision());
}

bool dofs_alias_evaluations(const Schedule &s)
{
  return s.strategy() == Strategy::Tiled && s.dofs() == Dofs::Shared && s.tiles().eval_rows >= s.tiles().quad_tile;
}

long long evaluation_words(const Schedule &s, const ActionIR &ir)
{
  const TileSizes &t = s.tiles();
  const long long e = static_cast<long long>(t.cells_per_group) * odd_stride(t.quad_tile * ir.n_eval());
  return dofs_alias_evaluations(s) ? std::max(e, shared_dof_words(s, ir)) : e;
}

int cell_value_stride(const ActionIR &ir) { return odd_stride(static_cast<int>(held_cell_values(ir.pointwise).size())); }

}  // namespace femgpu
