// femgpu-bench -rerank (femgpu_bench_rerank.h).
#include "tools/femgpu_bench_rerank.h"

#include <istream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "schedule/schedule.h"
#include "tools/bench_case.h"
#include "tune/quantities.h"

namespace femgpu {

namespace {

std::vector<std::string> fields_of(const std::string &line)
{
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string x; std::getline(ss, x, '|');) f.push_back(x);
  return f;
}

int integer(const std::string &text, const std::string &line)
{
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw std::runtime_error("femgpu-bench -rerank: '" + text + "' is not an integer in: " + line);
  return v;
}

}  // namespace

void rerank(std::istream &in, std::ostream &out, const DeviceParams &device, const std::vector<double> &barrier_ns)
{
  std::map<std::string, std::unique_ptr<BenchCase>> cases;  // lowered once per operator, dimension and degree
  out.precision(9);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = fields_of(line);
    if (f.size() < 4) throw std::runtime_error("femgpu-bench -rerank: expected operator|dim|degree|schedule|..., got: " + line);
    const std::string key = f[0] + "|" + f[1] + "|" + f[2];
    if (!cases.count(key)) cases[key] = lower_case(f[0], integer(f[1], line), integer(f[2], line));
    const BenchCase &c = *cases[key];
    Schedule s = Schedule::single_cell_per_work_item();
    try {
      s = parse_schedule(f[3]);
      // Tile sizes against the case; not shared memory: older runs timed kernels whose
      // shared layout has since grown (odd strides), and the model ranks them all the same.
      validate(s, c.ir, c.tab.n_points(), std::numeric_limits<long long>::max());
    } catch (const std::invalid_argument &e) {
      throw std::runtime_error("femgpu-bench -rerank: " + std::string(e.what()) + ", in: " + line);
    }
    if (s.strategy() != Strategy::Tiled) continue;
    const KernelShape shape = KernelShape::from(c.ir, c.tab.n_points());
    const Tiles &t = s.tiles();
    out << line << "|" << t_memory(shape, t, device) << "|" << n_sync(shape, t);
    for (double ns : barrier_ns) {
      DeviceParams d = device;
      d.barrier_seconds = ns * 1e-9;
      out << "|" << t_heur(shape, t, d);
    }
    out << "\n";
  }
}

}  // namespace femgpu
