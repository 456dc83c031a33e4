// An order of a mesh's cells that keeps neighbours together: cells sorted along a Z-order
// (Morton) curve of their centroids. A kernel's consecutive cells (a warp, a group) then
// share more vertices, edges and faces, so their gathers find more DOF values in the SM's
// L1 and the warp-aggregated scatter merges more adds. The action does not depend on the
// order of the cells (it is a sum over cells), only the order of the floating-point adds
// into each output entry changes.
//
// Takes: the coordinates and the coordinate map (nodes_per_cell entries a cell, each the
// node's first coordinate, as ActionArrays holds them; the first dim + 1 nodes of a cell
// are its vertices, as in PetscFE's Lagrange order).
// Returns: order[i] = the cell that goes to position i; permute_cell_rows applies it to a
// row-major map of `width` entries a cell.
// Does not: renumber DOFs (the vectors' layout is the caller's).
#pragma once

#include <vector>

namespace femgpu {

std::vector<int> morton_cell_order(int dim, int n_cells, int nodes_per_cell, const double *coordinates, const int *coordinate_map);
void permute_cell_rows(std::vector<int> *map, int width, const std::vector<int> &order);

}  // namespace femgpu
