// The text form of a schedule (schedule.h's to_string and parse_schedule): what MatView
// prints, the tuning cache stores, and forced schedules (femgpu-bench -schedule) are read from.
#include "schedule/schedule.h"

#include <sstream>
#include <stdexcept>

namespace femgpu {

std::string to_string(const Schedule &s)
{
  std::ostringstream os;
  if (s.strategy() == Strategy::SingleCellPerWorkItem) {
    os << "scpwi wg=" << s.work_group_size();
    if (s.lanes() != 1) os << " lanes=" << s.lanes();
  } else if (s.strategy() == Strategy::TensorCore) {
    os << "mma nc=" << s.mma().cells_per_group << " warps=" << s.mma().warps << " tq=" << s.mma().quad_tile;
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
  } else if (tokens[0] == "mma" && tokens.size() == 5) {
    MmaSizes m;
    m.cells_per_group = read_size(text, tokens[1], "nc");
    m.warps = read_size(text, tokens[2], "warps");
    m.quad_tile = read_size(text, tokens[3], "tq");
    s = Schedule::tensor_core(m, precision);
  } else {
    unreadable(text, "expected \"scpwi wg=N [lanes=C] [dofs=shared] [tables=constant[-merged]] [scatter=warp] [groups_per_sm=K] fpXX\" or \"tiled nc=.. nwi=.. tq=.. ter=.. "
                     "tec=[..] tqr=.. tqc=.. [dofs=shared] [cells=shared] [loops=unrolled] [tables=interleaved] [scatter=warp] [groups_per_sm=K] fpXX\" or \"mma nc=.. warps=.. tq=.. [groups_per_sm=K] fp64\"");
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

}  // namespace femgpu
