// The cells of a structured simplex mesh of a box: faces[d] intervals per direction,
// 2 triangles per square or 6 Kuhn tetrahedra per cube (conforming, all of one
// orientation), with vertices numbered lexicographically (x fastest).
//
// Takes: dim (2 or 3) and faces. Returns: (dim+1) vertex ids per cell, cell-major.
// Used by the DMPlex box mesh (src/petsc/plex/box_mesh.cpp) and the benchmark meshes.
#pragma once

#include <cstdint>
#include <vector>

namespace femgpu {

std::vector<std::int64_t> structured_cells(int dim, const std::int64_t faces[3]);

}  // namespace femgpu
