// Every device probe kernel compiles with NVRTC to an sm_90 cubin that contains it (no
// GPU needed; tests/unit/test_probe_tool_runs.cpp runs them where there is one).
#include <catch2/catch.hpp>

#include <algorithm>

#include "fem/quadrature.h"
#include "runtime/nvrtc_compile.h"
#include "probe/device_probe.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the device probe kernels for sm_90", "[nvrtc][probe]")
{
  const std::string source = probe_kernel_source(default_share_dir());
  CompiledCubin cubin;
  REQUIRE_NOTHROW(cubin = nvrtc_compile(source, "femgpu_probe", "sm_90"));
  INFO(cubin.log);
  REQUIRE(cubin.cubin.size() > 0);
  int kernels = 0;
  for (const char *const *name = probe_kernel_names(); *name; ++name, ++kernels) {
    INFO(*name);
    CHECK(source.find(std::string("void ") + *name + "(") != std::string::npos);
    const std::string symbol(*name);  // extern "C": the ELF symbol is the plain name
    CHECK(std::search(cubin.cubin.begin(), cubin.cubin.end(), symbol.begin(), symbol.end()) != cubin.cubin.end());
  }
  CHECK(kernels == 5);
}

TEST_CASE("The device probe names a missing kernel file", "[probe]")
{
  CHECK_THROWS_WITH(probe_kernel_source("/nonexistent/share"), Catch::Contains("/nonexistent/share/device/probe_kernels.cuh"));
}
