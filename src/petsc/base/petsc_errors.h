// Turning femgpu's C++ exceptions into PETSc errors at the API boundary, so that a bad
// form, an unsupported element or a failed compile reaches the user as a PETSc error
// with the message, never as an uncaught exception.
#pragma once

#include <petscsys.h>

#include <stdexcept>

#include "form/expr.h"
#include "runtime/device_faults.h"

#define FEMGPU_CXX(comm, ...)                                                          \
  do {                                                                                 \
    try {                                                                              \
      __VA_ARGS__;                                                                     \
    } catch (const femgpu::FormError &e_) {                                            \
      SETERRQ((comm), PETSC_ERR_USER_INPUT, "%s", e_.what());                          \
    } catch (const std::invalid_argument &e_) {                                        \
      SETERRQ((comm), PETSC_ERR_ARG_OUTOFRANGE, "%s", e_.what());                      \
    } catch (const femgpu::DeviceOutOfMemory &e_) {                                    \
      SETERRQ((comm), PETSC_ERR_MEM, "%s", e_.what());                                 \
    } catch (const std::bad_alloc &) {                                                 \
      SETERRQ((comm), PETSC_ERR_MEM, "out of host memory in femgpu");                  \
    } catch (const std::exception &e_) {                                               \
      SETERRQ((comm), PETSC_ERR_LIB, "%s", e_.what());                                 \
    }                                                                                  \
  } while (0)
