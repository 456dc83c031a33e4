// Device failures and their injection for tests (device_faults.h).
#include "runtime/device_faults.h"

#include <string>

namespace femgpu {

InjectedFaults &injected_faults()
{
  static InjectedFaults faults;
  return faults;
}

void check_injected_memory_cap(std::size_t live, std::size_t bytes, const char *what)
{
  const std::size_t largest = injected_faults().largest_buffer_bytes;
  if (largest > 0 && bytes > largest)
    throw DeviceOutOfMemory(std::string("device out of memory: ") + what + " of " + std::to_string(bytes) +
                            " bytes (one allocation capped at " + std::to_string(largest) + " bytes by an injected fault)");
  const std::size_t cap = injected_faults().device_memory_bytes;
  if (cap == 0 || live + bytes <= cap) return;
  throw DeviceOutOfMemory(std::string("device out of memory: ") + what + " of " + std::to_string(bytes) + " bytes with " + std::to_string(live) +
                          " in use (device memory capped at " + std::to_string(cap) + " bytes by an injected fault)");
}

}  // namespace femgpu
