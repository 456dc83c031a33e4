// The CUDA and OpenCL sources of one kernel are the same program: after spelling each
// dialect's tokens the same way, the kernels are identical text. Generated names carry
// their memory space (r_, s_, g_) and sizes are UPPER_CASE #defines.
#include <catch2/catch.hpp>

#include <regex>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string replace_all(std::string s, const std::string &from, const std::string &to)
{
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// The kernel from its signature on, with dialect tokens spelled neutrally.
std::string neutral(std::string s, const std::vector<std::pair<std::string, std::string>> &tokens)
{
  s = s.substr(s.find("\n", s.find("femgpu_action(")));
  for (const auto &[from, to] : tokens) s = replace_all(s, from, to);
  return s;
}

}  // namespace

TEST_CASE("CUDA and OpenCL kernels differ only in dialect tokens", "[kernel][emit]")
{
  std::mt19937 rng(5);
  ActionData d = make_action(form_cases()[4], 2, 2, 1, rng);  // nonlinear Jacobian
  for (const Schedule &s : {Schedule::single_cell_per_work_item(), tiled_sample(d.ir, d.tab.n_points())[0]}) {
    const kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, s);
    const std::string cuda = emit_cuda(k), opencl = emit_opencl(k);
    const std::string c = neutral(cuda, {{"__restrict__", "RESTRICT"}, {"__shared__", "SHARED"}, {"__syncthreads()", "BARRIER"},
                                         {"threadIdx.x", "LX"}, {"threadIdx.y", "LY"}, {"blockIdx.x", "GX"}, {"atomicAdd", "ATOMIC"}});
    const std::string o = neutral(opencl, {{"__global ", ""}, {"restrict", "RESTRICT"}, {"__local", "SHARED"},
                                           {"barrier(CLK_LOCAL_MEM_FENCE)", "BARRIER"}, {"get_local_id(0)", "LX"},
                                           {"get_local_id(1)", "LY"}, {"get_group_id(0)", "GX"}, {"femgpu_atomic_add", "ATOMIC"}});
    // CUDA slices its shared arrays out of one dynamic buffer (the first at its start);
    // OpenCL declares them.
    const std::string cs = std::regex_replace(c, std::regex(R"(real \*(s_\w+) = s_dynamic( \+ [^;]*)?;)"), "SHARED_ARRAY $1;");
    const std::string os = std::regex_replace(o, std::regex(R"(SHARED real (s_\w+)\[[^\]]*\];)"), "SHARED_ARRAY $1;");
    INFO(to_string(s));
    CHECK(cs == os);
    // Every declared variable names its memory space.
    std::smatch m;
    std::string rest = cuda;
    const std::regex decl(R"((?:const )?(?:real|int) \*?(?:__restrict__ )?([A-Za-z_][A-Za-z0-9_]*)(?:\[| =|,|\)))");
    while (std::regex_search(rest, m, decl)) {
      const std::string name = m[1];
      CHECK((name.rfind("r_", 0) == 0 || name.rfind("s_", 0) == 0 || name.rfind("g_", 0) == 0 || name.rfind("i_", 0) == 0 ||
             name == "n_cells"));
      rest = m.suffix();
    }
  }
}
