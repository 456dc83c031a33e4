// Quadrature on one facet of PETSc's reference simplex, for exterior facet integrals (ds).
//
// Takes: the cell dimension d (2 or 3), the local facet f = 0..d (opposite reference
// vertex f, ir/reference_facets.h), the degree to integrate exactly, the share folder.
// Returns: a QuadratureRule of the cell's dimension whose points lie on facet f: the
// (d-1)-simplex rule of simplex_quadrature() mapped affinely onto the facet, its weights
// times the map's Gram factor sqrt(det(Jf^T Jf)), so they sum to the reference facet's
// measure (2 or 2 sqrt(2) in 2D; 2 or 2 sqrt(3) in 3D). The family names the facet.
// Does not: apply the physical surface factor |det J| |K^T n_f| (lowering does).
#pragma once

#include <string>

#include "fem/quadrature.h"

namespace femgpu {

QuadratureRule facet_quadrature(int dim, int facet, int degree, const std::string &share_dir);

}  // namespace femgpu
