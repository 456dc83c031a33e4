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
  // A test process needs no MPI fabric: without these Open MPI 4.1's MPI_Init waited 0.3 s
  // (a singleton's helper daemon, the cm PML's fabric probes), most of a short test's time
  // (tests/CMakeLists.txt sets the same for the PETSc programs). A setting given wins.
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  // PETSc must not see Catch2's arguments.
  int pargc = 1;
  if (PetscInitialize(&pargc, &argv, nullptr, nullptr)) return 1;
  int result = Catch::Session().run(argc, argv);
  if (PetscFinalize()) return 1;
  return result;
}
