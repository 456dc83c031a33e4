// Cache files on disk: a store writes only over a missing file or a cache of its own
// kind (never a foreign file, a link, a FIFO, a folder or a read-only file), keeps every
// entry when several processes store at once, and survives a writer killed mid-write.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache/cache_file.h"
#include "probe/probe_cache.h"
#include "cache/tuning_cache.h"

using namespace femgpu;
namespace fs = std::filesystem;

namespace {

TuningKey key_on(const std::string &device)
{
  TuningKey k;
  k.form_fingerprint = "0123456789abcdef";
  k.cell = "triangle";
  k.degree = 2;
  k.precision = "fp64";
  k.backend = "opencl";
  k.device = device;
  k.nvrtc_version = "none";
  k.cells_bucket = 64;
  return k;
}

TuningEntry entry_on(const std::string &device) { return TuningEntry{key_on(device), "scpwi wg=32 fp64", 1e-4, 2, "2026-01-02T03:04:05Z"}; }

void accept_all(const Schedule &) {}

CacheStatus status_on(const std::string &path, const std::string &device) { return lookup_tuning(path, key_on(device), accept_all).status; }

std::string contents(const fs::path &p)
{
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void write(const fs::path &p, const std::string &text) { std::ofstream(p, std::ios::binary | std::ios::trunc) << text; }

size_t temporaries(const fs::path &dir)
{
  size_t n = 0;
  for (const auto &f : fs::directory_iterator(dir)) n += f.path().filename().string().find(".tmp.") != std::string::npos;
  return n;
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("femgpu-cache-safety-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

// Sets (or with nullptr unsets) an environment variable for one scope.
struct ScopedEnv {
  std::string name, saved;
  bool had;
  ScopedEnv(const char *n, const char *value) : name(n), had(std::getenv(n) != nullptr)
  {
    if (had) saved = std::getenv(n);
    if (value) setenv(n, value, 1);
    else unsetenv(n);
  }
  ~ScopedEnv()
  {
    if (had) setenv(name.c_str(), saved.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("Cache files: a store leaves files that are not tuning caches as they are", "[cache]")
{
  TempDir dir;
  const std::pair<const char *, std::string> foreign[] = {
      {"form.ufl", "a = inner(grad(u), grad(v))*dx\n"},
      {"project.json", "{\"name\": \"my project\", \"entries\": []}\n"},
      {"binary.json", std::string("\x7f" "ELF\x00\x01\xff", 7)},
      {"probe.json", "{\"format\": \"femgpu-device-params/2\"}\n"},  // another femgpu cache
  };
  for (const auto &[name, text] : foreign) {
    INFO(name);
    const fs::path p = dir.path / name;
    write(p, text);
    CHECK(status_on(p.string(), "d") == CacheStatus::ForeignFile);
    CHECK_THAT(store_tuning(p.string(), entry_on("d")), Catch::Contains("not a femgpu cache"));
    CHECK(contents(p) == text);
  }
  const fs::path empty = dir.path / "empty.json";  // an empty file holds nothing to lose
  write(empty, "");
  CHECK(store_tuning(empty.string(), entry_on("d")) == "");
  CHECK(status_on(empty.string(), "d") == CacheStatus::Hit);
}

TEST_CASE("Cache files: a store never writes through a link or to a FIFO, a folder or a read-only file", "[cache]")
{
  TempDir dir;
  const fs::path cache = dir.path / "tuning.json", other = dir.path / "other.txt";
  REQUIRE(store_tuning(cache.string(), entry_on("a")) == "");
  write(other, "precious\n");
  const std::string cache_text = contents(cache);
  fs::create_symlink(cache, dir.path / "to_cache.json");
  fs::create_symlink(other, dir.path / "to_other.json");
  fs::create_symlink(dir.path / "missing.json", dir.path / "dangling.json");
  for (const char *link : {"to_cache.json", "to_other.json", "dangling.json"}) {
    INFO(link);
    CHECK_THAT(store_tuning((dir.path / link).string(), entry_on("b")), Catch::Contains("symbolic link"));
    CHECK(fs::is_symlink(dir.path / link));
  }
  CHECK(contents(cache) == cache_text);
  CHECK(contents(other) == "precious\n");
  CHECK_FALSE(fs::exists(dir.path / "missing.json"));
  CHECK(status_on((dir.path / "to_cache.json").string(), "a") == CacheStatus::Hit);  // reading through a link is harmless

  const fs::path fifo = dir.path / "fifo.json", folder = dir.path / "folder.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  fs::create_directory(folder);
  for (const fs::path &p : {fifo, folder}) {
    INFO(p);
    CHECK(status_on(p.string(), "a") == CacheStatus::Unreadable);  // and a FIFO does not block the read
    CHECK_THAT(store_tuning(p.string(), entry_on("a")), Catch::Contains("not a regular file"));
  }
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_directory(folder));

  fs::permissions(cache, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  CHECK_THAT(store_tuning(cache.string(), entry_on("b")), Catch::Contains("read-only"));  // even as root
  CHECK(contents(cache) == cache_text);
  CHECK(status_on(cache.string(), "a") == CacheStatus::Hit);
}

TEST_CASE("Cache files: processes storing into one file at once keep every entry", "[cache]")
{
  TempDir dir;
  const std::string path = (dir.path / "shared" / "tuning.json").string();
  const int processes = 6, entries_each = 12;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // the child only stores, then leaves without running Catch's teardown
      int failed = 0;
      for (int i = 0; i < entries_each; ++i) failed += !store_tuning(path, entry_on(std::to_string(p) + "-" + std::to_string(i))).empty();
      ::_exit(failed);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  int found = 0;
  for (int p = 0; p < processes; ++p)
    for (int i = 0; i < entries_each; ++i) found += status_on(path, std::to_string(p) + "-" + std::to_string(i)) == CacheStatus::Hit;
  CHECK(found == processes * entries_each);
  CHECK(temporaries(dir.path / "shared") == 0);
}

TEST_CASE("Cache files: a writer killed between its temporary file and the rename leaves the cache valid", "[cache]")
{
  TempDir dir;
  const std::string path = (dir.path / "tuning.json").string();
  REQUIRE(store_tuning(path, entry_on("before")) == "");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // holds the lock, writes half a temporary file, dies
    update_cache_file(path, [](const std::string &) { return true; }, [&](const std::string &current) {
      write(path + ".tmp." + std::to_string(::getpid()) + ".0", current.substr(0, current.size() / 2));
      ::raise(SIGKILL);
      return current;
    });
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(temporaries(dir.path) == 1);
  CHECK(status_on(path, "before") == CacheStatus::Hit);
  // The kernel dropped the dead writer's lock: the next store goes through and clears the leftover.
  CHECK(store_tuning(path, entry_on("after")) == "");
  CHECK(status_on(path, "before") == CacheStatus::Hit);
  CHECK(status_on(path, "after") == CacheStatus::Hit);
  CHECK(temporaries(dir.path) == 0);
}

TEST_CASE("Cache files: stale temporary files and damaged caches do not break lookups or stores", "[cache]")
{
  TempDir dir;
  const fs::path cache = dir.path / "tuning.json";
  REQUIRE(store_tuning(cache.string(), entry_on("a")) == "");
  const std::string good = contents(cache);
  write(dir.path / "tuning.json.tmp.999999.0", good.substr(0, good.size() / 3));  // a crashed writer's, before locks
  write(dir.path / "tuning.json.tmp.999999.1", "");
  CHECK(status_on(cache.string(), "a") == CacheStatus::Hit);
  const std::string damaged[] = {good.substr(0, good.size() / 2), "{\"format\": \"femgpu-tuning-cache/3\", \"entries\": [{\"garbage\"",
                                 good.substr(0, good.find("\"checksum\"")) + "\"checksum\": \"0000000000000000\"\n}]}\n"};
  for (const std::string &text : damaged) {
    INFO(text);
    write(cache, text);
    CHECK(status_on(cache.string(), "a") != CacheStatus::Hit);
    CHECK(store_tuning(cache.string(), entry_on("a")) == "");  // a damaged cache of ours is rewritten
    CHECK(status_on(cache.string(), "a") == CacheStatus::Hit);
  }
  CHECK(temporaries(dir.path) == 0);
}

TEST_CASE("Probe cache: no cache folder means a probe that is not stored, and a foreign file is left alone", "[cache][probe]")
{
  const ProbeKey key = ProbeKey::opencl("pthread-test", "OpenCL 3.0", "3.1", femgpu_version());
  int probes = 0;
  auto probe = [&] {
    ++probes;
    DeviceProbe p;
    p.key = key;
    return p;
  };
  {
    ScopedEnv home("HOME", nullptr), xdg("XDG_CACHE_HOME", nullptr);
    const CachedProbe r = load_or_probe_with(key, "", false, probe);  // threw before
    CHECK(probes == 1);
    CHECK_FALSE(r.written);
    CHECK(r.path.empty());
    CHECK_THAT(r.note, Catch::Contains("no cache folder"));
    CHECK(probe_source(r) == "a probe (not saved: no cache folder)");
  }
  TempDir dir;
  const fs::path foreign = dir.path / "notes.json";
  write(foreign, "{\"mine\": true}\n");
  const CachedProbe r = load_or_probe_with(key, foreign.string(), false, probe);
  CHECK(probes == 2);
  CHECK_FALSE(r.written);
  CHECK_THAT(r.note, Catch::Contains("not a femgpu cache"));
  CHECK(contents(foreign) == "{\"mine\": true}\n");
}
