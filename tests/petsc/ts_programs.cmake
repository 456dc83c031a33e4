# PETSc's own TS tutorial ex45 (the heat equation, DMPlex + PetscDS), compiled unchanged,
# with the IJacobian shift * M + K as fem_gpu from a form whose constant `shift` TS binds
# (options only). Each test runs it with -dm_mat_type aij and with fem_gpu and compares
# PETSc's output: linear iterations of every step, the Newton history (each step's first
# residual norm reads the previous step's solution) and the final L2 error.
set(FEMGPU_PETSC_TS_TUTORIALS_DIR "/usr/share/petsc/3.18/share/petsc/examples/src/ts/tutorials"
    CACHE PATH "PETSc's src/ts/tutorials (ex45.c), for the unchanged TS program tests")
if(NOT EXISTS ${FEMGPU_PETSC_TS_TUTORIALS_DIR}/ex45.c OR NOT EXISTS ${CMAKE_CURRENT_BINARY_DIR}/box3d.msh)
  return()
endif()
add_executable(petsc_ex45 ${FEMGPU_PETSC_TS_TUTORIALS_DIR}/ex45.c)  # unchanged
target_link_libraries(petsc_ex45 PRIVATE PkgConfig::PETSC MPI::MPI_C m)
add_dependencies(petsc_ex45 femgpu)

set(HEAT ${CMAKE_CURRENT_SOURCE_DIR}/data/heat_shift.ufl)
set(EX45_SOLVE -dm_plex_boundary_label marker -temp_petscspace_degree 2 -sol_type quadratic_trig -ts_type beuler -ts_max_steps 5
               -ts_dt 0.1 -ksp_type cg -pc_type jacobi -ksp_rtol 1e-10 -ksp_converged_reason -snes_monitor -ts_monitor_error
               -petscpartitioner_type simple -dll_append $<TARGET_FILE:femgpu>)
set(EX45_STRATEGY_opencl "-mat_fem_gpu_strategy scpwi")  # no tuning on PoCL
foreach(dim 2 3)
  set(EX45 $<TARGET_FILE:petsc_ex45> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box${dim}d.msh ${EX45_SOLVE})
  foreach(backend cpu opencl)
    petsc_test(petsc_ex45_ijacobian_${dim}d_p2_${backend} ${COMPARE_PROGRAM}
               "--fem-gpu=-mat_fem_gpu_form_file ${HEAT} -mat_fem_gpu_backend ${backend} ${EX45_STRATEGY_${backend}}" --snes-norms 1e-8 --norm-floor 1e-9 -- ${EX45})
  endforeach()
endforeach()
set(EX45_2D $<TARGET_FILE:petsc_ex45> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box2d.msh ${EX45_SOLVE})
petsc_test(mpi2_petsc_ex45_ijacobian_2d_p2_opencl ${COMPARE_PROGRAM}
           "--fem-gpu=-mat_fem_gpu_form_file ${HEAT} -mat_fem_gpu_backend opencl -mat_fem_gpu_strategy scpwi" --snes-norms 1e-8 --norm-floor 1e-9 -- ${MPI2} ${EX45_2D})
# -mat_fem_gpu_check_jacobian under TS compares with the IJacobian PETSc assembles at the
# stage's shift: the heat form passes, the Laplace form (no shift * M term) is caught.
set(EX45_FEM_GPU ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -mat_fem_gpu_check_jacobian 1e-12)
petsc_test(petsc_ex45_check_jacobian_matches ${CHECK} "--match=matches the program's IJacobian to .* at shift 10" --
           ${EX45_FEM_GPU} -mat_fem_gpu_form_file ${HEAT} -info)
petsc_test(petsc_ex45_check_jacobian_detects_missing_shift ${CHECK}
           "--error=differs from the IJacobian the program assembles from its PetscDS at t = 0.1, shift = 10. by"
           -- ${EX45_FEM_GPU} -mat_fem_gpu_form_file ${FORMS}/laplace.ufl)
petsc_test(petsc_ex45_form_without_shift_noted ${CHECK} "--match=names no constant 'shift': the IJacobian has no time-derivative term" --
           ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -mat_fem_gpu_form_file ${FORMS}/laplace.ufl -info)
# The shift where no TS gives one: ex13 (SNES) with the heat form.
petsc_test(bad_shift_in_snes_jacobian ${CHECK} "--error=names the constant 'shift', which is TS's shift .* but this Jacobian is a SNES program's" --
           $<TARGET_FILE:petsc_ex13> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box2d.msh ${SOLVE} -potential_petscspace_degree 2
           -dm_mat_type fem_gpu -mat_fem_gpu_form_file ${HEAT} -mat_fem_gpu_backend cpu)
# The time: a form whose operator equals the program's only at t = 0.1 (one step of 0.1).
petsc_test(petsc_ex45_time_bound_to_t ${CHECK} "--match=matches the program's IJacobian to" --
           ${EX45_FEM_GPU} -ts_max_steps 1 -mat_fem_gpu_form_file ${CMAKE_CURRENT_SOURCE_DIR}/data/heat_shift_vanishing_at_t.ufl -info)
# fem_gpu_pmg under TS: BDF2's shift changes in its first steps (20, 30, 15 with dt 0.1);
# the levels and the assembled coarse level follow it at every stage. The same final
# error as aij, at most 15 iterations a step, on 1 and 2 ranks.
set(EX45_BDF -ts_type bdf -ts_adapt_type none -ts_max_steps 4)
set(PMG_TOO_MANY "--no-match=iterations (1[6-9]|[2-9][0-9]|[0-9][0-9][0-9])")
foreach(case "cpu;" "opencl;${MPI2}")
  list(GET case 0 backend)
  list(GET case 1 launcher)
  set(name petsc_ex45_pmg_bdf_2d_p2_${backend})
  if(launcher)
    set(name mpi2_${name})
  endif()
  petsc_test(${name} ${COMPARE_PROGRAM} --iterations -1
             "--fem-gpu=-mat_fem_gpu_form_file ${HEAT} -mat_fem_gpu_backend ${backend} ${EX45_STRATEGY_${backend}} -pc_type fem_gpu_pmg"
             -- ${launcher} ${EX45_2D} ${EX45_BDF})
endforeach()
petsc_test(petsc_ex45_pmg_levels_follow_shift ${CHECK} "--match=fem_gpu_pmg: the levels' constants are the operator's: shift = 30.0" ${PMG_TOO_MANY}
           "--match=Linear solve converged" -- ${EX45_2D} ${EX45_BDF} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -mat_fem_gpu_form_file ${HEAT}
           -pc_type fem_gpu_pmg -info)
# The residual F(t, u, u_t) of a TS program from a form file is not supported yet: an error
# that says so and what works (before, it read as "the program's own function").
petsc_test(bad_ts_residual_form_file ${CHECK} "--error=-dm_fem_gpu_form_file .*heat_shift.ufl: this is a TS program" --
           ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -mat_fem_gpu_form_file ${HEAT} -dm_fem_gpu_form_file ${HEAT})
