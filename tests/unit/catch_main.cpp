// Catch2 main that brackets the tests with PetscInitialize/PetscFinalize, because the
// element tables come from PetscFE.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <petscsys.h>

int main(int argc, char **argv)
{
  // PETSc must not see Catch2's arguments.
  int pargc = 1;
  if (PetscInitialize(&pargc, &argv, nullptr, nullptr)) return 1;
  int result = Catch::Session().run(argc, argv);
  if (PetscFinalize()) return 1;
  return result;
}
