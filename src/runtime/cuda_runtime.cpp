// CUDA driver API host code: primary context, module from cubin, device buffers from
// action_buffers.h, launch with the kernel's block shape, read back.
#include "runtime/cuda_runtime.h"

#include <cuda.h>

#include <stdexcept>

#include "runtime/action_buffers.h"

namespace femgpu {

namespace {

void check(CUresult r, const char *what)
{
  if (r == CUDA_SUCCESS) return;
  const char *message = nullptr;
  cuGetErrorString(r, &message);
  throw std::runtime_error(std::string("CUDA: ") + what + " failed: " + (message ? message : std::to_string(r)));
}

// A module loaded for one call, unloaded on every path out.
struct Module {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  Module(const std::vector<char> &cubin, const std::string &name)
  {
    check(cuModuleLoadData(&module, cubin.data()), "cuModuleLoadData");
    check(cuModuleGetFunction(&function, module, name.c_str()), "cuModuleGetFunction");
  }
  ~Module() { cuModuleUnload(module); }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
};

}  // namespace

struct CudaRuntime::State {
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::vector<CUdeviceptr> buffers;  // of the current apply()

  ~State()
  {
    release_buffers();
    if (context) cuDevicePrimaryCtxRelease(device);
  }
  void release_buffers()
  {
    for (CUdeviceptr b : buffers) cuMemFree(b);
    buffers.clear();
  }
  CUdeviceptr upload(const std::vector<unsigned char> &bytes)
  {
    CUdeviceptr p = 0;
    check(cuMemAlloc(&p, bytes.size()), "cuMemAlloc");
    buffers.push_back(p);
    check(cuMemcpyHtoD(p, bytes.data(), bytes.size()), "cuMemcpyHtoD");
    return p;
  }
};

CudaRuntime::CudaRuntime(int device) : state_(std::make_unique<State>())
{
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&state_->device, device), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&state_->context, state_->device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(state_->context), "cuCtxSetCurrent");
}

CudaRuntime::~CudaRuntime() = default;

std::string CudaRuntime::device_name() const
{
  char name[256] = {0};
  check(cuDeviceGetName(name, sizeof name - 1, state_->device), "cuDeviceGetName");
  return name;
}

KernelResources CudaRuntime::resources(const std::vector<char> &cubin, const std::string &name) const
{
  check(cuCtxSetCurrent(state_->context), "cuCtxSetCurrent");
  Module m(cubin, name);
  KernelResources r;
  check(cuFuncGetAttribute(&r.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, m.function), "cuFuncGetAttribute");
  check(cuFuncGetAttribute(&r.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, m.function), "cuFuncGetAttribute");
  check(cuFuncGetAttribute(&r.shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, m.function), "cuFuncGetAttribute");
  check(cuFuncGetAttribute(&r.max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m.function), "cuFuncGetAttribute");
  return r;
}

void CudaRuntime::apply(const kernel::Kernel &k, const std::vector<char> &cubin, const ActionIR &ir, const Tabulation &tab,
                        const ActionArrays &arrays, double *out, size_t n_out)
{
  State &s = *state_;
  check(cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
  Module m(cubin, k.name);
  std::vector<HostArgument> host = host_arguments(k, ir, tab, arrays, out, n_out);
  // cuLaunchKernel takes the address of each argument's value.
  std::vector<CUdeviceptr> pointers(host.size(), 0);
  std::vector<void *> params(host.size(), nullptr);
  CUdeviceptr out_pointer = 0;
  size_t out_bytes = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    if (host[i].kind == ArgKind::CellCount) {
      params[i] = &host[i].scalar;
      continue;
    }
    pointers[i] = s.upload(host[i].bytes);
    params[i] = &pointers[i];
    if (host[i].kind == ArgKind::Out) out_pointer = pointers[i], out_bytes = host[i].bytes.size();
  }
  const unsigned groups = static_cast<unsigned>(group_count(k, arrays.n_cells));
  check(cuLaunchKernel(m.function, groups, 1, 1, static_cast<unsigned>(k.block_x), static_cast<unsigned>(k.block_y), 1, 0,
                       nullptr, params.data(), nullptr),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<unsigned char> result(out_bytes);
  check(cuMemcpyDtoH(result.data(), out_pointer, out_bytes), "cuMemcpyDtoH");
  copy_out(result, k.precision, out, n_out);
  s.release_buffers();
}

}  // namespace femgpu
