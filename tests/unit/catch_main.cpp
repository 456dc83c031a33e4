// Catch2 main that brackets the tests with PetscInitialize/PetscFinalize, because the
// element tables come from PetscFE.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <petscsys.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

// ctest starts one process per test, two at a time. Open MPI 4.1 keeps every process's
// session folders in one folder under $TMPDIR, which it creates and removes as processes
// come and go, and MPI_Init failed once when two did so at the same moment ("mkdir ...
// File exists", a clean-clone CI run). Each test process gets a TMPDIR of its own,
// removed at its end.
struct PrivateTmpdir {
  std::string path;
  PrivateTmpdir()
  {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/femgpu-unit-XXXXXX";
    if (mkdtemp(pattern.data())) {
      path = pattern;
      setenv("TMPDIR", path.c_str(), 1);
    }
  }
  ~PrivateTmpdir()
  {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

int main(int argc, char **argv)
{
  const PrivateTmpdir tmpdir;
  // PETSc must not see Catch2's arguments.
  int pargc = 1;
  if (PetscInitialize(&pargc, &argv, nullptr, nullptr)) return 1;
  int result = Catch::Session().run(argc, argv);
  if (PetscFinalize()) return 1;
  return result;
}
