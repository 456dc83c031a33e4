// OpenCL 1.2 host code: context, program build, buffers from action_buffers.h, launch
// with the kernel's group shape, read back.
#define CL_TARGET_OPENCL_VERSION 120
#include "runtime/opencl_runtime.h"
#include "runtime/device_faults.h"

#include "runtime/opencl_calls.h"

#include <algorithm>
#include <utility>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "runtime/action_buffers.h"

namespace femgpu {

namespace {

// The names of the errors a launch or allocation can meet, so a message says what failed.
const char *error_name(cl_int err)
{
  switch (err) {
    case CL_OUT_OF_RESOURCES: return " (CL_OUT_OF_RESOURCES)";
    case CL_OUT_OF_HOST_MEMORY: return " (CL_OUT_OF_HOST_MEMORY)";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return " (CL_MEM_OBJECT_ALLOCATION_FAILURE)";
    case CL_INVALID_WORK_GROUP_SIZE: return " (CL_INVALID_WORK_GROUP_SIZE)";
    case CL_INVALID_WORK_ITEM_SIZE: return " (CL_INVALID_WORK_ITEM_SIZE)";
    case CL_INVALID_GLOBAL_WORK_SIZE: return " (CL_INVALID_GLOBAL_WORK_SIZE)";
    case CL_INVALID_KERNEL_ARGS: return " (CL_INVALID_KERNEL_ARGS)";
    case CL_INVALID_BUFFER_SIZE: return " (CL_INVALID_BUFFER_SIZE)";
    default: return "";
  }
}

}  // namespace

void opencl::check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string("OpenCL: ") + what + " failed with error " + std::to_string(err) + error_name(err));
}

using opencl::check;

namespace {

std::string first_lines(const std::string &s, int n)
{
  size_t pos = 0;
  for (int i = 0; i < n && pos != std::string::npos; ++i) pos = s.find('\n', pos + 1);
  return s.substr(0, pos);
}

}  // namespace

struct OpenCLRuntime::State {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::vector<cl_mem> buffers;  // of the current apply()
  // Built programs by source (the action's and the diagonal's), the oldest dropped
  // past kMaxPrograms so that trying many schedules does not hold them all.
  static constexpr size_t kMaxPrograms = 4;
  std::vector<std::pair<std::string, cl_program>> programs;

  ~State()
  {
    release_buffers();
    for (auto &kv : programs) clReleaseProgram(kv.second);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  void release_buffers()
  {
    for (cl_mem b : buffers) clReleaseMemObject(b);
    buffers.clear();
    buffer_bytes = 0;
  }
  size_t buffer_bytes = 0;  // held by `buffers`
  cl_mem buffer(const void *data, size_t bytes)
  {
    cl_int err = CL_SUCCESS;
    check_injected_memory_cap(buffer_bytes, bytes, "clCreateBuffer");
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void *>(data), &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES)
      throw DeviceOutOfMemory("device out of memory: clCreateBuffer of " + std::to_string(bytes) + " bytes failed with error " + std::to_string(err));
    check(err, "clCreateBuffer");
    buffers.push_back(b);
    buffer_bytes += bytes;
    return b;
  }
};

cl_device_id opencl::first_device()
{
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_uint n = 0;
  check(clGetPlatformIDs(1, &platform, &n), "clGetPlatformIDs");
  if (n == 0) throw std::runtime_error("OpenCL: no platform");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &n), "clGetDeviceIDs");
  return device;
}

OpenCLRuntime::OpenCLRuntime() : state_(std::make_unique<State>())
{
  state_->device = opencl::first_device();
  cl_int err = CL_SUCCESS;
  state_->context = clCreateContext(nullptr, 1, &state_->device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  state_->queue = clCreateCommandQueue(state_->context, state_->device, 0, &err);
  check(err, "clCreateCommandQueue");
}

OpenCLRuntime::~OpenCLRuntime() = default;

std::string opencl::device_string(cl_device_id device, cl_device_info what)
{
  size_t len = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &len), "clGetDeviceInfo");
  std::string s(len, '\0');
  check(clGetDeviceInfo(device, what, len, s.data(), nullptr), "clGetDeviceInfo");
  return s.substr(0, s.find('\0'));
}

bool opencl_device_available()
{
  try {
    return opencl::first_device() != nullptr;
  } catch (const std::exception &) {
    return false;  // no ICD, no platform, or a platform without devices
  }
}

OpenCLDeviceId opencl_device_id()
{
  const cl_device_id device = opencl::first_device();
  return {opencl::device_string(device, CL_DEVICE_NAME), opencl::device_string(device, CL_DEVICE_VERSION),
          opencl::device_string(device, CL_DRIVER_VERSION)};
}

std::string OpenCLRuntime::device_name() const
{
  char name[256] = {0};
  check(clGetDeviceInfo(state_->device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr), "clGetDeviceInfo");
  return name;
}

namespace {

std::string build_log(cl_program program, cl_device_id device)
{
  size_t len = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
  std::string log(len, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));  // what() stops at a NUL
  return log;
}

}  // namespace

cl_program opencl::build_program(cl_context context, cl_device_id device, const std::string &source)
{
  const char *text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  // An injected compile fault passes an option the OpenCL compiler refuses (device_faults.h).
  const char *options = injected_faults().compile ? "-cl-injected-fault-no-such-option" : "";
  cl_int built = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
  // PoCL's kernel cache can fail a build with no diagnostic when two processes (MPI ranks)
  // build the same program at once; the same build then succeeds. A compiler error has a
  // diagnostic and fails again.
  if (built == CL_BUILD_PROGRAM_FAILURE && build_log(program, device).find("error") == std::string::npos)
    built = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
  if (built != CL_SUCCESS) {
    const std::string log = build_log(program, device);
    clReleaseProgram(program);
    throw std::runtime_error("OpenCL build failed:\n" + log + "\n--- source (first 40 lines) ---\n" + first_lines(source, 40));
  }
  return program;
}

void OpenCLRuntime::apply(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                          const ActionArrays &arrays, double *out, size_t n_out)
{
  if (arrays.n_cells == 0) return;  // nothing to add; empty arrays cannot become buffers
  run(k, source, host_arguments(k, ir, tab, arrays, out, n_out), arrays.n_cells, out, n_out);
}

void OpenCLRuntime::diagonal(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                             const ActionArrays &arrays, double *diag, size_t n_out)
{
  if (arrays.n_cells == 0) return;
  run(k, source, host_arguments(diagonal_arguments(ir), k, ir, tab, arrays, diag, n_out), arrays.n_cells, diag, n_out);
}

void OpenCLRuntime::cell_matrices(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                                  const ActionArrays &arrays, double *out, size_t n_out)
{
  if (arrays.n_cells == 0) return;
  run(k, source, host_arguments(cell_matrix_arguments(ir), k, ir, tab, arrays, out, n_out), arrays.n_cells, out, n_out);
}

void OpenCLRuntime::run(const kernel::Kernel &k, const std::string &source, const std::vector<HostArgument> &host, int n_cells,
                        double *out, size_t n_out)
{
  State &s = *state_;
  auto found = std::find_if(s.programs.begin(), s.programs.end(), [&](const auto &kv) { return kv.first == source; });
  if (found == s.programs.end()) {
    cl_program built = opencl::build_program(s.context, s.device, source);
    if (s.programs.size() >= State::kMaxPrograms) {
      clReleaseProgram(s.programs.front().second);
      s.programs.erase(s.programs.begin());
    }
    s.programs.emplace_back(source, built);
    found = s.programs.end() - 1;
  }
  cl_program program = found->second;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, k.name.c_str(), &err);
  check(err, "clCreateKernel");
  cl_mem out_buffer = nullptr;
  size_t out_bytes = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    const cl_uint index = static_cast<cl_uint>(i);
    if (host[i].kind == ArgKind::CellCount) {
      check(clSetKernelArg(kernel, index, sizeof(int), &host[i].scalar), "clSetKernelArg");
      continue;
    }
    cl_mem b = s.buffer(host[i].bytes.data(), host[i].bytes.size());
    if (host[i].kind == ArgKind::Out) out_buffer = b, out_bytes = host[i].bytes.size();
    check(clSetKernelArg(kernel, index, sizeof(cl_mem), &b), "clSetKernelArg");
  }
  size_t local[2] = {static_cast<size_t>(k.block_x), static_cast<size_t>(k.block_y)};
  const size_t global[2] = {group_count(k, n_cells) * local[0], local[1]};
  // An injected launch fault asks for a work-group that does not divide the grid and is
  // past any device's limit: the runtime's own refusal (device_faults.h).
  if (injected_faults().launch) local[0] = global[0] + (size_t{1} << 20);
  check(clEnqueueNDRangeKernel(s.queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
  std::vector<unsigned char> result(out_bytes);
  check(clEnqueueReadBuffer(s.queue, out_buffer, CL_TRUE, 0, result.size(), result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  copy_out(result, k.precision, out, n_out);
  s.release_buffers();
  clReleaseKernel(kernel);
}

}  // namespace femgpu
