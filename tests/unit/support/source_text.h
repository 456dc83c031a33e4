// A sampled kernel's CUDA source, and counting what it (or its PTX) contains: what the
// kernel-shape tests of the schedule options share.
#pragma once

#include <cstddef>
#include <string>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "action_cases.h"

namespace femgpu::test {

inline std::string action_cuda_source(const ActionData &d, const Schedule &s) { return kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, s)); }

// Occurrences of `what` in `text`.
inline std::size_t count_of(const std::string &text, const std::string &what)
{
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace femgpu::test
