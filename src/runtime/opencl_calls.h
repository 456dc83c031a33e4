// The OpenCL calls the runtime's two users share (opencl_runtime.cpp builds and runs
// action kernels, opencl_profiling.cpp times the probe's): the first device, its
// strings, a checked call, a program build that throws with its log. Internal to
// src/runtime (it includes CL/cl.h).
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
  #define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>

namespace femgpu::opencl {

// Throws std::runtime_error naming `what` and the error code unless err is CL_SUCCESS.
void check(cl_int err, const char *what);
// The first device of the first platform; throws when there is none.
cl_device_id first_device();
std::string device_string(cl_device_id device, cl_device_info what);
// Builds `source` for `device` (throws with the build log and the source's first lines).
cl_program build_program(cl_context context, cl_device_id device, const std::string &source);

}  // namespace femgpu::opencl
