// The setup phases' hook (see setup_phases.h).
#include "runtime/setup_phases.h"

namespace femgpu {

namespace {
SetupPhaseHook current_hook = nullptr;
CopyHook current_copy_hook = nullptr;
}  // namespace

void set_setup_phase_hook(SetupPhaseHook hook) { current_hook = hook; }

void set_copy_hook(CopyHook hook) { current_copy_hook = hook; }

void note_copy(bool to_device, std::size_t bytes)
{
  if (current_copy_hook && bytes) current_copy_hook(to_device, static_cast<double>(bytes));
}

SetupPhaseScope::SetupPhaseScope(SetupPhase phase) : phase_(phase), hook_(current_hook)
{
  if (hook_) hook_(phase_, true);
}

SetupPhaseScope::~SetupPhaseScope()
{
  if (hook_) hook_(phase_, false);
}

}  // namespace femgpu
