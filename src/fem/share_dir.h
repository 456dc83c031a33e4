// Where femgpu's data folder is: share/femgpu (form files, quadrature tables, the device
// helper sources the emitters and probes read).
//
// Takes: the environment variable FEMGPU_SHARE_DIR, the file this code was loaded from
// (libfemgpu.so, or a tool that links femgpu's code statically), and the source tree's
// share/femgpu compiled in for runs from the build tree.
// Returns: the first folder that has quadrature/ in it, of
//   1. $FEMGPU_SHARE_DIR (for unusual layouts; an error when it is not such a folder),
//   2. <folder of that file>/../share/femgpu (an installed tree, wherever it was moved:
//      bin/ and lib/ both sit next to share/),
//   3. the source tree's share/femgpu, only when that file lies in the build tree.
// Does not: fall back to the configure-time install prefix (an installed tree must not
// read a source tree that happens to exist); it throws naming what it looked for.
#pragma once

#include <string>

namespace femgpu {

std::string default_share_dir();

}  // namespace femgpu
