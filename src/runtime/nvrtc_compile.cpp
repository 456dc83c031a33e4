// NVRTC: source -> cubin for one real architecture (or PTX for a virtual one); failures
// keep their source on disk.
#include "runtime/nvrtc_compile.h"
#include "runtime/device_faults.h"
#include "runtime/kernel_binary_store.h"

#include <nvrtc.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>

namespace femgpu {

namespace {

void check(nvrtcResult r, const char *what)
{
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string("NVRTC: ") + what + ": " + nvrtcGetErrorString(r));
}

std::string program_log(nvrtcProgram prog)
{
  size_t size = 0;
  if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size == 0) return "";
  std::string log(size, '\0');
  nvrtcGetProgramLog(prog, log.data());
  if (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

std::string save_source(const std::string &source, const std::string &name)
{
  const auto path = std::filesystem::temp_directory_path() /
                    ("femgpu_" + name + "_" + std::to_string(std::hash<std::string>{}(source)) + ".cu");
  std::ofstream(path) << source;
  return path.string();
}

}  // namespace

namespace {

// femgpu's NVRTC options for an architecture (sm_ for a cubin, compute_ for PTX).
// An injected compile fault adds an option NVRTC refuses (device_faults.h).
std::vector<std::string> options_for(const std::string &arch)
{
  std::vector<std::string> options{"-arch=" + arch, "--std=c++17", "-default-device"};
  if (injected_faults().compile) options.push_back("--injected-fault-no-such-option");
  return options;
}

// Compiles `source` with `options` and returns the program (the caller destroys it), or
// throws with the options, NVRTC's log and the saved source.
nvrtcProgram compile_program(const std::string &source, const std::string &name, const std::vector<std::string> &options, std::string *log)
{
  nvrtcProgram prog = nullptr;
  check(nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  std::vector<const char *> opts;
  for (const std::string &o : options) opts.push_back(o.c_str());
  const nvrtcResult r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  *log = program_log(prog);
  if (r != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    std::string joined;
    for (const std::string &o : options) joined += " " + o;
    throw std::runtime_error("NVRTC compile of " + name + " failed (" + nvrtcGetErrorString(r) + "), options:" + joined +
                             "\nsource saved to " + save_source(source, name) + "\n" + *log);
  }
  return prog;
}

}  // namespace

CompiledCubin nvrtc_compile(const std::string &source, const std::string &name, const std::string &arch)
{
  CompiledCubin result;
  // A real architecture (sm_, not compute_) so that NVRTC produces SASS in a cubin.
  result.options = options_for(arch);
  nvrtcProgram prog = compile_program(source, name, result.options, &result.log);
  size_t size = 0;
  check(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  result.cubin.resize(size);
  check(nvrtcGetCUBIN(prog, result.cubin.data()), "nvrtcGetCUBIN");
  nvrtcDestroyProgram(&prog);
  return result;
}

namespace {

// What a kept cubin depends on: the compiler, its options (the architecture among them)
// and the source, whole (the store compares it, so no two sources share an entry).
std::string binary_key(const std::string &source, const std::string &arch)
{
  std::string key = "nvrtc " + nvrtc_version() + "\noptions";
  for (const std::string &o : options_for(arch)) key += " " + o;
  return key + "\n" + source;
}

}  // namespace

std::vector<char> compile_cubin_kept(const std::string &source, const std::string &name, const std::string &arch)
{
  const std::shared_ptr<KernelBinaryStore> store = kernel_binary_store();
  if (!store || injected_faults().compile) return nvrtc_compile(source, name, arch).cubin;  // a fault must reach NVRTC
  const std::string key = binary_key(source, arch);
  if (std::optional<std::vector<char>> kept = store->find(key)) return *kept;
  std::vector<char> cubin = nvrtc_compile(source, name, arch).cubin;
  store->keep(key, cubin);
  return cubin;
}

void keep_compiled_cubin(const std::string &source, const std::string &arch, const std::vector<char> &cubin)
{
  if (const std::shared_ptr<KernelBinaryStore> store = kernel_binary_store()) store->keep(binary_key(source, arch), cubin);
}

std::string nvrtc_ptx(const std::string &source, const std::string &name, const std::string &virtual_arch)
{
  std::string log;
  nvrtcProgram prog = compile_program(source, name, options_for(virtual_arch), &log);
  size_t size = 0;
  check(nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize");
  std::string ptx(size, '\0');
  check(nvrtcGetPTX(prog, ptx.data()), "nvrtcGetPTX");
  nvrtcDestroyProgram(&prog);
  if (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

std::string nvrtc_version()
{
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace femgpu
