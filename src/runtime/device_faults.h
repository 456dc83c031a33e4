// What goes wrong on a device, and how tests make it go wrong on demand.
//
// DeviceOutOfMemory: what both backends throw when device memory runs out (a real
// cuMemAlloc/clCreateBuffer failure, or the injected cap below); the PETSc layer turns it
// into PETSC_ERR_MEM.
// injected_faults(): process-wide switches that tests set to take the error paths that
// working hardware rarely takes. A fault goes through the real failing call where one
// exists: a poisoned compiler option (NVRTC's and the OpenCL compiler's own errors), a
// launch with an invalid work-group (the driver's own error); only the memory cap is
// counted here, since a test cannot fill a GPU. All off unless a test turns them on: no
// option or environment variable reaches them.
#pragma once

#include <cstddef>
#include <stdexcept>

namespace femgpu {

struct DeviceOutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InjectedFaults {
  bool compile = false;                  // every kernel compile gets an option the compiler refuses
  bool launch = false;                   // every launch asks for a work-group the device cannot have
  std::size_t device_memory_bytes = 0;   // allocations past this many live device bytes fail; 0: no cap
  std::size_t largest_buffer_bytes = 0;  // one allocation larger than this fails (a mesh's cell matrices
                                         // are the largest: they run out first); 0: no cap
};

InjectedFaults &injected_faults();

// Throws DeviceOutOfMemory when `bytes` more would pass the injected cap (live: bytes
// already held by the caller's allocations).
void check_injected_memory_cap(std::size_t live, std::size_t bytes, const char *what);

}  // namespace femgpu
