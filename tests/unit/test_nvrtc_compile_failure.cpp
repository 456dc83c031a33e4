// A CUDA kernel that NVRTC refuses (an injected poisoned option, device_faults.h) throws
// an error that carries what a user needs to reproduce it: the options NVRTC was given,
// its log, and where the failing source was saved; once the fault is gone the same
// source compiles. Runs without a GPU.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/device_faults.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"
#include "support/source_text.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("an NVRTC compile failure names the options, the log and the saved source", "[nvrtc][faults]")
{
  std::mt19937 rng(9);
  ActionData d = make_action(form_cases().front(), 2, 2, 1, rng);
  const std::string source = action_cuda_source(d, Schedule::single_cell_per_work_item(32));
  injected_faults().compile = true;
  std::string message;
  try {
    nvrtc_compile(source, "poisoned");
  } catch (const std::runtime_error &e) {
    message = e.what();
  }
  injected_faults() = InjectedFaults();
  INFO(message);
  CHECK(message.find("NVRTC compile of poisoned failed") != std::string::npos);
  CHECK(message.find("--injected-fault-no-such-option") != std::string::npos);  // the options
  std::smatch saved;
  REQUIRE(std::regex_search(message, saved, std::regex("source saved to (\\S+)")));
  std::ifstream in(saved[1].str());
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(kept == source);
  CHECK_FALSE(nvrtc_compile(source, "healthy").cubin.empty());
}
