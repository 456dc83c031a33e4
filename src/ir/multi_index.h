// A reference derivative as a multi-index: how many times each reference direction is
// differentiated. The IR names the derivatives each evaluation group and the test
// function need with it; fem/ tabulates a table per multi-index.
//
// Takes and returns: plain values. Does not: know elements or points.
#pragma once

#include <array>

namespace femgpu {

// Reference derivative counts per reference direction: (0,0,0) is the value, (1,0,0)
// d/dX0, (1,1,0) d2/dX0dX1, ...
using MultiIndex = std::array<int, 3>;

// The derivative's total order, |alpha|.
inline int order(const MultiIndex &alpha) { return alpha[0] + alpha[1] + alpha[2]; }

}  // namespace femgpu
