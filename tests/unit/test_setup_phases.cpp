// SetupPhaseScope (src/runtime/setup_phases.h): the hook hears a begin and an end for
// every scope, nested in order, also when an exception leaves a scope; none without a hook.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/setup_phases.h"

using femgpu::SetupPhase;
using femgpu::SetupPhaseScope;

namespace {

std::vector<std::string> heard;

void record(SetupPhase phase, bool begin)
{
  const char *name = phase == SetupPhase::KernelMake ? "make" : phase == SetupPhase::KernelLoad ? "load" : "data";
  heard.push_back(std::string(begin ? "+" : "-") + name);
}

// Unsets the hook when a test case ends, passed or not.
struct HookSet {
  HookSet() { femgpu::set_setup_phase_hook(record); heard.clear(); }
  ~HookSet() { femgpu::set_setup_phase_hook(nullptr); }
};

}  // namespace

TEST_CASE("SetupPhaseScope: nested scopes reach the hook in order, also through an exception", "[setup_phases]")
{
  HookSet set;
  {
    SetupPhaseScope make(SetupPhase::KernelMake);
    SetupPhaseScope load(SetupPhase::KernelLoad);
  }
  CHECK(heard == std::vector<std::string>{"+make", "+load", "-load", "-make"});
  heard.clear();
  CHECK_THROWS_AS(([] {
                    SetupPhaseScope data(SetupPhase::DeviceData);
                    throw std::runtime_error("out of device memory");
                  }()),
                  std::runtime_error);
  CHECK(heard == std::vector<std::string>{"+data", "-data"});
}

TEST_CASE("SetupPhaseScope: without a hook nothing is called, and a scope ends with the hook it began with", "[setup_phases]")
{
  heard.clear();
  femgpu::set_setup_phase_hook(nullptr);
  { SetupPhaseScope make(SetupPhase::KernelMake); }
  CHECK(heard.empty());
  {
    SetupPhaseScope data(SetupPhase::DeviceData);  // began without a hook
    femgpu::set_setup_phase_hook(record);
  }
  CHECK(heard.empty());
  femgpu::set_setup_phase_hook(nullptr);
}
