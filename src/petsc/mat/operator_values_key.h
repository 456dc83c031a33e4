// What a fem_gpu operator's values depend on, as numbers that compare equal when the
// values did not change: its setup (another form or DM is another operator), the constants its kernel reads (TS's shift, not a time the
// operator has lost), the identity and state of each coefficient Vec it reads (SNES's or
// TS's state where the operator is nonlinear in it), whether MatZeroEntries left it zero,
// and its MatScale/MatShift edits. A part that cannot be compared (another edit, a Mat of
// several fields or with boundary-facet parts, not yet set up) makes the key unequal to
// every key, itself included (NaN).
// For: work done on an operator's values that can be kept while they stay (its diagonal;
// the p-multigrid's levels, coarse matrix and coarse solver under TS with a fixed time step).
#pragma once

#include <petscmat.h>

#include <vector>

namespace femgpu {

PetscErrorCode MatFEMGPUOperatorValuesKey(Mat A, std::vector<double> *key);

}  // namespace femgpu
