// The setup phases' hook (see setup_phases.h).
#include "runtime/setup_phases.h"

namespace femgpu {

namespace {
SetupPhaseHook current_hook = nullptr;
}

void set_setup_phase_hook(SetupPhaseHook hook) { current_hook = hook; }

SetupPhaseScope::SetupPhaseScope(SetupPhase phase) : phase_(phase), hook_(current_hook)
{
  if (hook_) hook_(phase_, true);
}

SetupPhaseScope::~SetupPhaseScope()
{
  if (hook_) hook_(phase_, false);
}

}  // namespace femgpu
