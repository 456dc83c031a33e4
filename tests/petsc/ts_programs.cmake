# PETSc's own TS tutorial ex45 (the heat equation, DMPlex + PetscDS), compiled unchanged,
# with the IJacobian shift * M + K as fem_gpu from a form whose constant `shift` TS binds
# (options only), and the whole problem, IFunction and IJacobian, from one residual file
# with the time derivative w_t (-dm_fem_gpu_form_file). Each test runs it with -dm_mat_type aij and with fem_gpu and compares
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

# The whole problem from one form file: -dm_fem_gpu_form_file makes the IFunction
# F(t, U, U_t) femgpu's (w bound to U, w_t to U_t, t to the time; boundary values from
# ex45's DMAddBoundary at each time) and the IJacobian the fem_gpu operator of
# dF/dw + shift dF/dw_t of the same file. The same iterations, Newton history and final
# L2 error as aij; with fem_gpu_pmg, the same error in at most 15 iterations a step.
set(HEAT_T ${CMAKE_CURRENT_SOURCE_DIR}/data/heat_time_derivative.ufl)
foreach(dim 2 3)
  set(EX45 $<TARGET_FILE:petsc_ex45> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box${dim}d.msh ${EX45_SOLVE})
  foreach(backend cpu opencl)
    set(RESIDUAL "-dm_fem_gpu_form_file ${HEAT_T} -mat_fem_gpu_backend ${backend} ${EX45_STRATEGY_${backend}}")
    petsc_test(petsc_ex45_residual_${dim}d_p2_${backend} ${COMPARE_PROGRAM} "--fem-gpu=${RESIDUAL}" --snes-norms 1e-8 --norm-floor 1e-9 -- ${EX45})
    petsc_test(petsc_ex45_residual_pmg_${dim}d_p2_${backend} ${COMPARE_PROGRAM} "--fem-gpu=${RESIDUAL} -pc_type fem_gpu_pmg" --iterations -1
               --max-iterations 15 -- ${EX45})
  endforeach()
endforeach()
# The DM holds the IFunction's Mat, which keeps U_t: nothing it keeps may hold the DM.
petsc_test(petsc_ex45_residual_frees_everything ${CHECK} "--match=TSSolve|Linear solve converged" "--no-match=never freed"
           -- ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -dm_fem_gpu_form_file ${HEAT_T} -objects_dump -ts_max_steps 2)
foreach(backend cpu opencl)
  set(RESIDUAL "-dm_fem_gpu_form_file ${HEAT_T} -mat_fem_gpu_backend ${backend} ${EX45_STRATEGY_${backend}}")
  petsc_test(mpi2_petsc_ex45_residual_2d_p2_${backend} ${COMPARE_PROGRAM} "--fem-gpu=${RESIDUAL}" --snes-norms 1e-8 --norm-floor 1e-9 -- ${MPI2} ${EX45_2D})
  petsc_test(mpi2_petsc_ex45_residual_pmg_2d_p2_${backend} ${COMPARE_PROGRAM} "--fem-gpu=${RESIDUAL} -pc_type fem_gpu_pmg" --iterations -1
             --max-iterations 15 -- ${MPI2} ${EX45_2D})
endforeach()
# A residual without w_t in a TS program is steady, F(t, w) = 0 at every step: said, and solved.
petsc_test(petsc_ex45_residual_without_time_derivative ${CHECK}
           "--match=has no time derivative .a coefficient w_t of its unknown w.: F.t, w. is a steady residual" "--match=Linear solve converged"
           -- ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -dm_fem_gpu_form_file ${CMAKE_CURRENT_SOURCE_DIR}/data/ex13_poisson.ufl -info)
# Bad input: TS's shift in the residual (an IFunction has none); w_t and shift in a SNES
# program's residual (ex13), where no TS gives them values.
set(SHIFT_IN_F ${CMAKE_CURRENT_SOURCE_DIR}/data/heat_residual_with_shift.ufl)
petsc_test(bad_ts_residual_names_shift ${CHECK} "--error=the residual F of -dm_fem_gpu_form_file .*heat_residual_with_shift.ufl names the constant 'shift', TS's shift"
           -- ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -dm_fem_gpu_form_file ${SHIFT_IN_F})
set(EX13_2D $<TARGET_FILE:petsc_ex13> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box2d.msh ${SOLVE} -potential_petscspace_degree 2 -mat_fem_gpu_backend cpu)
petsc_test(bad_time_derivative_in_snes_residual ${CHECK}
           "--error=heat_time_derivative.ufl names the coefficient 'w_t', the time derivative of 'w' that a TS program gives .U_t., but no TS gives"
           -- ${EX13_2D} -dm_fem_gpu_form_file ${HEAT_T})
petsc_test(bad_shift_in_snes_residual ${CHECK} "--error=names the constant 'shift', which is TS's shift .* but this residual is a SNES program's" --
           ${EX13_2D} -dm_fem_gpu_form_file ${SHIFT_IN_F})
petsc_test(bad_check_residual_in_ts ${CHECK} "--error=-dm_fem_gpu_check_residual: compares with a SNES program's residual .* this is a TS program" --
           ${EX45_2D} -dm_fem_gpu_form_file ${HEAT_T} -mat_fem_gpu_backend cpu -dm_fem_gpu_check_residual)

# Explicit methods (ex45 -explicit): the mass matrix TS inverts at every stage
# (DMTSCreateRHSMassMatrix -> DMCreateMassMatrix) is the fem_gpu Mat of inner(u, v)*dx
# with -dm_mat_type fem_gpu, solved by the options' KSP (here CG + Jacobi): the same mass
# solves (iterations) and final L2 error as with aij (-lumped 0: ex45 lumps by default,
# which P2 does not bear); the lumped mass (-lumped, here P1) is PETSc's.
set(EX45_EXPLICIT -explicit -lumped 0 -ts_type euler -ts_dt 1e-4 -ts_max_steps 5 -mass_ksp_type cg -mass_pc_type jacobi -mass_ksp_rtol 1e-12
                  -mass_ksp_converged_reason)
foreach(dim 2 3)
  set(EX45 $<TARGET_FILE:petsc_ex45> -dm_plex_filename ${CMAKE_CURRENT_BINARY_DIR}/box${dim}d.msh ${EX45_SOLVE} ${EX45_EXPLICIT})
  foreach(backend cpu opencl)
    petsc_test(petsc_ex45_explicit_mass_${dim}d_p2_${backend} ${COMPARE_PROGRAM} "--fem-gpu=-mat_fem_gpu_backend ${backend} ${EX45_STRATEGY_${backend}}"
               --error-tolerance 1e-9 -- ${EX45})
  endforeach()
endforeach()
petsc_test(mpi2_petsc_ex45_explicit_mass_2d_p2_opencl ${COMPARE_PROGRAM} "--fem-gpu=-mat_fem_gpu_backend opencl -mat_fem_gpu_strategy scpwi"
           --error-tolerance 1e-9 -- ${MPI2} ${EX45_2D} ${EX45_EXPLICIT})
petsc_test(petsc_ex45_explicit_mass_is_fem_gpu ${CHECK} "--match=DMCreateMassMatrix is the fem_gpu Mat of inner.u, v.\\*dx"
           "--match=Linear mass_ solve converged" -- ${EX45_2D} ${EX45_EXPLICIT} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -info)
petsc_test(petsc_ex45_explicit_lumped_mass ${CHECK} "--match=Timestep: 0005 .* L_2 Error: .0.0052" --
           ${EX45_2D} ${EX45_EXPLICIT} -lumped 1 -temp_petscspace_degree 1 -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu)

# TS's essential values (DMPlexTSComputeBoundary, before every IFunction and IJacobian)
# come from femgpu's plan on a fem_gpu DM, U_t's from DMAddBoundary's time derivatives
# (plex/boundary_values_hook.h); the ex45 comparisons above hold their values to aij's.
petsc_test(petsc_ex45_boundary_values_from_plan ${CHECK} "--match=boundary values and their time derivatives from [0-9]+ nodes of 1 essential boundaries"
           "--match=Linear solve converged" -- ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -mat_fem_gpu_form_file ${HEAT} -info :dm)

# fem_gpu_pmg under backward Euler on a linear problem: the operator's values (shift,
# and a state its Jacobian does not read) stay, so the levels, coarse matrix, GAMG and the
# finest smoother are kept after the first setup (BDF2 above, whose shift changes,
# refreshes them).
# The finest smoother's Chebyshev estimates its eigenvalues once (its operator is a view
# whose state changes with the values only).
petsc_test(petsc_ex45_pmg_kept_while_values_stay ${CHECK} "--match=values are those of the last setup: the levels, coarse matrix and coarse solver are kept"
           --count "Eigen estimator ran" 1 "--match=Timestep: 0005 .* L_2 Error" --
           ${EX45_2D} -dm_mat_type fem_gpu -mat_fem_gpu_backend cpu -dm_fem_gpu_form_file ${HEAT_T} -pc_type fem_gpu_pmg -info :pc,ksp)
