// SetupPhaseScope (src/runtime/setup_phases.h): the hook hears a begin and an end for
// every scope, nested in order, also when an exception leaves a scope; none without a hook.
// note_copy: the copy hook hears what is copied.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <utility>
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

TEST_CASE("note_copy: the copy hook hears each copy's direction and bytes, none of zero bytes", "[setup_phases]")
{
  static std::vector<std::pair<bool, double>> copies;
  copies.clear();
  femgpu::set_copy_hook([](bool to_device, double bytes) { copies.emplace_back(to_device, bytes); });
  femgpu::note_copy(true, 4096);
  femgpu::note_copy(false, 8);
  femgpu::note_copy(true, 0);
  femgpu::set_copy_hook(nullptr);
  femgpu::note_copy(true, 16);
  CHECK(copies == std::vector<std::pair<bool, double>>{{true, 4096.0}, {false, 8.0}});
}
