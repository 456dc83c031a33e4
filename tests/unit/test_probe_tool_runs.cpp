// femgpu-probe, run as a user runs it. Without a CUDA device it exits with status 2
// and says why; with one it measures, writes a cache file that reads back under this
// device's key, and a second run reads that file instead of probing again.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "runtime/cuda_driver.h"
#include "probe/device_probe.h"

using namespace femgpu;

namespace {

std::string run(const std::string &args, int *exit_status)
{
  const std::string cmd = std::string(FEMGPU_PROBE_TOOL) + " " + args + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  const int status = pclose(pipe.release());
  *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string read_file(const std::string &path)
{
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

TEST_CASE("femgpu-probe fails cleanly without a GPU and measures with one", "[tool][probe]")
{
  const std::string cache = (std::filesystem::temp_directory_path() / "femgpu-probe-test" / "device.json").string();
  std::filesystem::remove_all(std::filesystem::path(cache).parent_path());
  int status = 0;
  if (!cuda::device_available()) {
    const std::string out = run("--cache " + cache, &status);
    INFO(out);
    CHECK(status == 2);
    CHECK(out.find("no CUDA device to probe") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(cache));
    return;
  }
  std::string out = run("--cache " + cache + " --runs 7", &status);
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("cache written to") != std::string::npos);
  std::string why;
  const std::optional<DeviceProbe> probe = parse_device_cache(read_file(cache), current_probe_key(0), &why);
  INFO(why);
  REQUIRE(probe);
  CHECK(probe->params.beta_global > 1e11);
  CHECK(probe->params.flops_peak > 1e11);
  out = run("--cache " + cache + " --json", &status);
  CHECK(status == 0);
  CHECK(out == read_file(cache));  // the second run reads the cache and prints it
}

TEST_CASE("femgpu-probe rejects unknown arguments", "[tool][probe]")
{
  int status = 0;
  const std::string out = run("--bogus", &status);
  CHECK(status == 1);
  CHECK(out.find("unknown or incomplete argument '--bogus'") != std::string::npos);
}
