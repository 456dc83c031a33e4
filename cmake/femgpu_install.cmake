# Installing femgpu as a relocatable tree (docs/petsc.md, "Installing and building against it"):
#   bin/                 femgpu-form, femgpu-apply, femgpu-probe (femgpu-bench with CUDA);
#                        RUNPATH $ORIGIN/../lib, plus the folders PETSc, MPI and CUDA were found in
#   lib/libfemgpu.so     the Mat type (also loadable with -dll_append)
#   lib/pkgconfig/femgpu.pc, lib/cmake/femgpu/femgpuConfig.cmake (+ version file):
#                        both locate the tree from where they lie, so it may be moved
#   include/femgpu.h
#   share/femgpu/        the source tree's share/femgpu as it is: forms, quadrature tables, device
#                        probe kernels and femgpu-bench's inputs, what the library and tools read
#                        at run time, found next to them (fem/share_dir.h); the benchmark records
#                        (records/) and set-up scripts (scripts/) live outside it
# Included by the top-level CMakeLists.txt after the targets exist. The RPATH settings
# must precede the targets: they are set there.
include(CMakePackageConfigHelpers)

install(TARGETS femgpu femgpu-form femgpu-apply femgpu-probe RUNTIME DESTINATION bin LIBRARY DESTINATION lib)
if(TARGET femgpu-bench)
  install(TARGETS femgpu-bench RUNTIME DESTINATION bin)
endif()
install(FILES include/femgpu.h DESTINATION include)
install(DIRECTORY share/femgpu DESTINATION share PATTERN "__pycache__" EXCLUDE)

configure_file(cmake/femgpu.pc.in ${PROJECT_BINARY_DIR}/femgpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/femgpu.pc DESTINATION lib/pkgconfig)

configure_package_config_file(cmake/femgpuConfig.cmake.in ${PROJECT_BINARY_DIR}/femgpuConfig.cmake
                              INSTALL_DESTINATION lib/cmake/femgpu)
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/femgpuConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/femgpuConfig.cmake ${PROJECT_BINARY_DIR}/femgpuConfigVersion.cmake
        DESTINATION lib/cmake/femgpu)
