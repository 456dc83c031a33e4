// NVRTC compiles an action kernel's CUDA source for sm_90 (the H100/H200 of the GPU
// machines) into a non-empty cubin. No GPU needed: CI compiles every sampled variant.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/nvrtc_compile.h"
#include "action_cases.h"
#include "source_text.h"

namespace femgpu::test {

inline void check_nvrtc_compiles(const std::string &source)
{
  CompiledCubin cubin;
  REQUIRE_NOTHROW(cubin = nvrtc_compile(source, "femgpu_action", "sm_90"));
  CHECK(cubin.cubin.size() > 0);
}

}  // namespace femgpu::test
