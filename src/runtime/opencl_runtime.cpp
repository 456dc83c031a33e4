// OpenCL 1.2 host code: context, program build, buffers in the kernel's precision,
// launch with the kernel's group shape, read back.
#define CL_TARGET_OPENCL_VERSION 120
#include "runtime/opencl_runtime.h"

#include <CL/cl.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "kernel/kernel_abi.h"

namespace femgpu {

namespace {

void check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS) throw std::runtime_error(std::string("OpenCL: ") + what + " failed with error " + std::to_string(err));
}

std::string first_lines(const std::string &s, int n)
{
  size_t pos = 0;
  for (int i = 0; i < n && pos != std::string::npos; ++i) pos = s.find('\n', pos + 1);
  return s.substr(0, pos);
}

// Entries a map addresses: its largest entry + 1 (at least 1: buffers may not be empty).
size_t extent(const int *map, size_t entries)
{
  int top = -1;
  for (size_t i = 0; i < entries; ++i) top = std::max(top, map[i]);
  return static_cast<size_t>(top + 1 > 0 ? top + 1 : 1);
}

}  // namespace

struct OpenCLRuntime::State {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::vector<cl_mem> buffers;  // of the current apply()

  ~State()
  {
    release_buffers();
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  void release_buffers()
  {
    for (cl_mem b : buffers) clReleaseMemObject(b);
    buffers.clear();
  }
  cl_mem buffer(const void *data, size_t bytes)
  {
    cl_int err = CL_SUCCESS;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void *>(data), &err);
    check(err, "clCreateBuffer");
    buffers.push_back(b);
    return b;
  }
  // Reals go to the device in the kernel's precision.
  cl_mem reals(const double *data, size_t n, Precision p)
  {
    if (p == Precision::FP64) return buffer(data, n * sizeof(double));
    std::vector<float> f(data, data + n);
    return buffer(f.data(), n * sizeof(float));
  }
};

OpenCLRuntime::OpenCLRuntime() : state_(std::make_unique<State>())
{
  cl_platform_id platform = nullptr;
  cl_uint n = 0;
  check(clGetPlatformIDs(1, &platform, &n), "clGetPlatformIDs");
  if (n == 0) throw std::runtime_error("OpenCL: no platform");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &state_->device, &n), "clGetDeviceIDs");
  cl_int err = CL_SUCCESS;
  state_->context = clCreateContext(nullptr, 1, &state_->device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  state_->queue = clCreateCommandQueue(state_->context, state_->device, 0, &err);
  check(err, "clCreateCommandQueue");
}

OpenCLRuntime::~OpenCLRuntime() = default;

std::string OpenCLRuntime::device_name() const
{
  char name[256] = {0};
  check(clGetDeviceInfo(state_->device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr), "clGetDeviceInfo");
  return name;
}

namespace {

cl_program build_program(cl_context context, cl_device_id device, const std::string &source)
{
  const char *text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
    std::string log(len, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
    clReleaseProgram(program);
    throw std::runtime_error("OpenCL build failed:\n" + log + "\n--- source (first 40 lines) ---\n" + first_lines(source, 40));
  }
  return program;
}

}  // namespace

void OpenCLRuntime::apply(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                          const ActionArrays &arrays, double *out, size_t n_out)
{
  State &s = *state_;
  cl_program program = build_program(s.context, s.device, source);
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, k.name.c_str(), &err);
  check(err, "clCreateKernel");
  const Precision p = k.precision;
  const size_t cells = static_cast<size_t>(arrays.n_cells);
  const TableLayout tables = pack_tables(ir, tab);
  std::vector<double> constants = arrays.constants;
  if (constants.empty()) constants.push_back(0.0);
  cl_mem out_buffer = nullptr;
  cl_uint index = 0;
  for (const KernelArg &a : kernel_arguments(ir)) {
    cl_mem b = nullptr;
    const FunctionArrays *f = a.function == kCoordinates ? &arrays.coordinates
                              : a.function == kTrialFunction ? &arrays.trial
                                                             : nullptr;
    if ((a.kind == ArgKind::Values || a.kind == ArgKind::Map) && !f) f = &arrays.coefficients.at(static_cast<size_t>(a.function - 2));
    const size_t width = a.kind == ArgKind::TestMap ? static_cast<size_t>(ir.n_test_basis * ir.signature.element.components)
                         : f                            ? static_cast<size_t>(function_dofs(ir, a.function))
                                                        : 0;
    switch (a.kind) {
      case ArgKind::CellCount: check(clSetKernelArg(kernel, index++, sizeof(int), &arrays.n_cells), "clSetKernelArg"); continue;
      case ArgKind::Values: b = s.reals(f->values, extent(f->map, cells * width), p); break;
      case ArgKind::Map: b = s.buffer(f->map, std::max<size_t>(1, cells * width) * sizeof(int)); break;
      case ArgKind::TestMap: b = s.buffer(arrays.test_map, std::max<size_t>(1, cells * width) * sizeof(int)); break;
      case ArgKind::Tables: b = s.reals(tables.data.data(), tables.data.size(), p); break;
      case ArgKind::Weights: b = s.reals(tab.rule.weights.data(), tab.rule.weights.size(), p); break;
      case ArgKind::Constants: b = s.reals(constants.data(), constants.size(), p); break;
      case ArgKind::Out: b = out_buffer = s.reals(out, std::max<size_t>(1, n_out), p); break;
    }
    check(clSetKernelArg(kernel, index++, sizeof(cl_mem), &b), "clSetKernelArg");
  }
  const size_t groups = (cells + static_cast<size_t>(k.cells_per_group) - 1) / static_cast<size_t>(k.cells_per_group);
  const size_t local[2] = {static_cast<size_t>(k.block_x), static_cast<size_t>(k.block_y)};
  const size_t global[2] = {std::max<size_t>(1, groups) * local[0], local[1]};
  check(clEnqueueNDRangeKernel(s.queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
  if (p == Precision::FP64) {
    check(clEnqueueReadBuffer(s.queue, out_buffer, CL_TRUE, 0, n_out * sizeof(double), out, 0, nullptr, nullptr), "read");
  } else {
    std::vector<float> f(n_out);
    check(clEnqueueReadBuffer(s.queue, out_buffer, CL_TRUE, 0, n_out * sizeof(float), f.data(), 0, nullptr, nullptr), "read");
    std::copy(f.begin(), f.end(), out);
  }
  s.release_buffers();
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

}  // namespace femgpu
