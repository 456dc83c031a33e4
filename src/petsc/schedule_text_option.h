// -mat_fem_gpu_schedule "<text>": a forced schedule given as the text Schedule prints
// (schedule.h's to_string: "tiled nc=64 nwi=2 tq=33 ter=33 tec=[12] tqr=36 tqc=11
// loops=unrolled tables=interleaved fp64"), so a winner in a log can be pasted back.
// Each word of that text is declared once in schedule_text_option.cpp's table (its key,
// range or choices, help and the ScheduleRequest field it sets); the parser, the range
// checks and the option's -help text are made from it.
//
// Takes: the text. A text may leave out what it does not fix ("tiled nc=3 nwi=5"): those
// fields keep their defaults and are completed at setup, as the separate options are.
// Returns: the ScheduleRequest with the text's fields set, or a PETSc error naming the
// word it cannot take (unknown key, a value out of its range or not among its choices).
// Does not: check the schedule against the form or device (setup's validate() does).
#pragma once

#include <string>

#include "petsc/mat_femgpu_impl.h"

namespace femgpu {

// Sets the fields of *r that `text` names; `option` names the option in errors.
PetscErrorCode ScheduleRequestFromText_FEMGPU(const char *option, const std::string &text, ScheduleRequest *r);

// The option's -help text: each word with its range or choices.
std::string schedule_text_help();

// One Markdown table row per word ("| `nc=` | 1-4096 | ... |"), for docs/petsc.md.
std::string schedule_text_docs_table();

}  // namespace femgpu
