// A profiling queue on the first OpenCL device, one program, buffers, and event-timed
// launches (see the header).
#include "runtime/opencl_profiling.h"

#include "runtime/opencl_calls.h"

#include <stdexcept>

namespace femgpu {

using opencl::check;

namespace {

template <class T> T device_value(cl_device_id device, cl_device_info what)
{
  T value{};
  check(clGetDeviceInfo(device, what, sizeof value, &value, nullptr), "clGetDeviceInfo");
  return value;
}

const char *type_name(cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

OpenCLDeviceInfo info_of(cl_device_id device)
{
  OpenCLDeviceInfo d;
  d.id = {opencl::device_string(device, CL_DEVICE_NAME), opencl::device_string(device, CL_DEVICE_VERSION),
          opencl::device_string(device, CL_DRIVER_VERSION)};
  d.type = type_name(device_value<cl_device_type>(device, CL_DEVICE_TYPE));
  d.compute_units = static_cast<int>(device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS));
  d.max_work_group_size = device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  d.local_mem_bytes = static_cast<double>(device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE));
  d.global_mem_bytes = static_cast<double>(device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE));
  d.global_cache_bytes = static_cast<double>(device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE));
  d.max_alloc_bytes = static_cast<double>(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  const std::string extensions = " " + opencl::device_string(device, CL_DEVICE_EXTENSIONS) + " ";
  d.fp64 = extensions.find(" cl_khr_fp64 ") != std::string::npos;
  return d;
}

double event_ms(cl_event e)
{
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr), "clGetEventProfilingInfo");
  check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "clGetEventProfilingInfo");
  return static_cast<double>(end - start) * 1e-6;
}

}  // namespace

OpenCLDeviceInfo opencl_device_info() { return info_of(opencl::first_device()); }

struct OpenCLProfiler::State {
  cl_device_id device = nullptr;
  OpenCLDeviceInfo info;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::vector<cl_mem> buffers;

  ~State()
  {
    for (cl_mem b : buffers) clReleaseMemObject(b);
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  cl_kernel kernel(const std::string &name) const
  {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name.c_str(), &err);
    check(err, ("clCreateKernel(" + name + ")").c_str());
    return k;
  }
  size_t group_info(const std::string &name, cl_kernel_work_group_info what) const
  {
    cl_kernel k = kernel(name);
    size_t value = 0;
    const cl_int err = clGetKernelWorkGroupInfo(k, device, what, sizeof value, &value, nullptr);
    clReleaseKernel(k);
    check(err, "clGetKernelWorkGroupInfo");
    return value;
  }
  cl_mem at(int index) const
  {
    if (index < 0 || static_cast<size_t>(index) >= buffers.size()) throw std::out_of_range("OpenCLProfiler: no buffer " + std::to_string(index));
    return buffers[static_cast<size_t>(index)];
  }
};

OpenCLProfiler::OpenCLProfiler(const std::string &source) : state_(std::make_unique<State>())
{
  State &s = *state_;
  s.device = opencl::first_device();
  s.info = info_of(s.device);
  cl_int err = CL_SUCCESS;
  s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  s.queue = clCreateCommandQueue(s.context, s.device, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE)");
  s.program = opencl::build_program(s.context, s.device, source);
}

OpenCLProfiler::~OpenCLProfiler() = default;

const OpenCLDeviceInfo &OpenCLProfiler::info() const { return state_->info; }

size_t OpenCLProfiler::preferred_multiple(const std::string &kernel) const
{
  return state_->group_info(kernel, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
}

size_t OpenCLProfiler::max_group_size(const std::string &kernel) const { return state_->group_info(kernel, CL_KERNEL_WORK_GROUP_SIZE); }

int OpenCLProfiler::buffer(size_t bytes)
{
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(state_->context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, ("clCreateBuffer(" + std::to_string(bytes) + " bytes)").c_str());
  state_->buffers.push_back(b);
  return static_cast<int>(state_->buffers.size()) - 1;
}

void OpenCLProfiler::upload(int buffer, const void *data, size_t bytes)
{
  check(clEnqueueWriteBuffer(state_->queue, state_->at(buffer), CL_TRUE, 0, bytes, data, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
}

void OpenCLProfiler::download(int buffer, void *data, size_t bytes) const
{
  check(clEnqueueReadBuffer(state_->queue, state_->at(buffer), CL_TRUE, 0, bytes, data, 0, nullptr, nullptr), "clEnqueueReadBuffer");
}

std::vector<double> OpenCLProfiler::time(const std::string &name, const std::vector<LaunchArg> &args, size_t groups, size_t group_size,
                                         int warmup, int runs)
{
  State &s = *state_;
  cl_kernel kernel = s.kernel(name);
  std::vector<cl_event> events;
  auto release = [&] {
    for (cl_event e : events) clReleaseEvent(e);
    clReleaseKernel(kernel);
  };
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const cl_uint index = static_cast<cl_uint>(i);
      if (args[i].buffer >= 0) {
        cl_mem b = s.at(args[i].buffer);
        check(clSetKernelArg(kernel, index, sizeof b, &b), "clSetKernelArg");
      } else {
        check(clSetKernelArg(kernel, index, args[i].bytes.size(), args[i].bytes.data()), "clSetKernelArg");
      }
    }
    const size_t global = groups * group_size;
    for (int i = 0; i < warmup + runs; ++i) {
      cl_event e = nullptr;
      check(clEnqueueNDRangeKernel(s.queue, kernel, 1, nullptr, &global, &group_size, 0, nullptr, i < warmup ? nullptr : &e),
            ("clEnqueueNDRangeKernel(" + name + ")").c_str());
      if (e) events.push_back(e);
    }
    check(clFinish(s.queue), "clFinish");
    std::vector<double> ms;
    for (cl_event e : events) ms.push_back(event_ms(e));
    release();
    return ms;
  } catch (...) {
    release();
    throw;
  }
}

}  // namespace femgpu
