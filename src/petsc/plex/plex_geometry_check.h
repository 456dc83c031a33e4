// det J > 0 at every quadrature point of every cell, checked on the host when a fem_gpu
// Mat is set up, once per coordinate state and rule.
//
// Takes: a DMPlex, its maps (plex_maps.h: each cell's coordinate nodes), the coordinate
// degree and the reference points (n x dim, PETSc's reference simplex) of the rule the
// kernels integrate with.
// Returns: nothing where every det J is positive and finite; else a PETSc error
// (PETSC_ERR_ARG_OUTOFRANGE, PETSc's code for its own "Invalid determinant") naming the
// value, the cell (its DMPlex point on its rank; on several ranks, the rank) and the
// quadrature point (its index in `points`). Collective: every rank stops with it.
// Why: the kernels compute J at every point from the coordinates and integrate with
// |det J|, so an inverted cell (det J < 0: a folded mesh, a cell listed clockwise, a P2
// cell folded inside) would be integrated as if it were not and a flat one (det J = 0)
// gives NaN, without a word. PETSc takes a cell's vertex order as its orientation and
// stops where det J <= 0 at a quadrature point ("Invalid determinant", DMProjectFunction
// and DMComputeL2Diff), so femgpu refuses the same cells. det J, a polynomial of degree
// dim (k - 1) on P_k coordinates, is computed at that degree's Lagrange nodes of each cell
// (one on an affine cell) and interpolated to the points: exact, M determinants and
// Q x M multiply-adds a cell, OpenMP-parallel over the cells; -info gives its time.
// Does not: check facet points of curved cells (ds integrals), or the device.
#pragma once

#include <petscdm.h>

#include <memory>
#include <vector>

#include "petsc/plex/plex_maps.h"

namespace femgpu {

// `maps` are the DM's shared maps (plex_shared_maps): a check is remembered on the DM for
// them and these points, and done again when they are rebuilt (new coordinates).
PetscErrorCode plex_check_geometry(DM dm, const std::shared_ptr<const PlexMaps> &maps, int coordinate_degree, const std::vector<double> &points);

}  // namespace femgpu
