// The exterior facets a ds integral runs over, found on a DMPlex.
//
// Takes: a DMPlex (interpolated: faces are points), the name of its boundary label and,
// for ds(i), the label value i.
// Returns: for each local facet f = 0..dim of the reference cell (the facet opposite the
// cell's closure vertex f, which is reference vertex f: ir/reference_facets.h), the cells
// of this rank (0-based from the first cell) whose facet f is an exterior boundary face
// (DMPlexMarkBoundaryFaces: one support cell and not shared with another rank), with
// that label value when one is given. Also the closure maps of a subset of cells.
// Does not: integrate anything; src/petsc/mat/mat_femgpu_facets.cpp builds the operators.
#pragma once

#include <petscdmplex.h>

#include <optional>
#include <string>
#include <vector>

#include "petsc/plex/plex_maps.h"

namespace femgpu {

// The label ds(i) reads: `requested` when given (it must exist), else "Face Sets" when
// the DM has it, else "marker"; *name is empty when the DM has neither.
PetscErrorCode boundary_label_name(DM dm, const std::string &requested, std::string *name);

// Errors unless some rank's label `name` has value `value` (collective).
PetscErrorCode check_boundary_label_value(DM dm, const std::string &name, int value);

// cells[f]: the cells whose facet f is on the boundary (with label `name` = value, if given).
PetscErrorCode boundary_facet_cells(DM dm, const std::string &name, std::optional<int> value, std::vector<std::vector<PetscInt>> *cells);

// The rows of `all` (maps of every cell) for `cells`, in that order.
PlexMaps subset_maps(const PlexMaps &all, const std::vector<PetscInt> &cells);

}  // namespace femgpu
