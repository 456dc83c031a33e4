// -mat_fem_gpu_schedule "<text>": a forced schedule given as the text Schedule prints
// (schedule.h's to_string: "tiled nc=64 nwi=2 tq=33 ter=33 tec=[12] tqr=36 tqc=11
// loops=unrolled tables=interleaved fp64"), so a winner in a log can be pasted back.
// The words, their ranges and their help come from the one table of schedule words
// (src/schedule/schedule_words.h), which also prints and reads the tuning cache's
// schedules; this file only turns its errors into PETSc errors.
//
// Takes: the text. A text may leave out what it does not fix ("tiled nc=3 nwi=5"): those
// words are completed at setup (schedule_words.h's completed_schedule).
// Returns: the ScheduleRequest holding the text's words, or a PETSc error naming the
// option and the word it cannot take (unknown, misplaced, out of range, not a choice, a
// character that is not ASCII), then the text (a long one by its two ends).
// Does not: check the schedule against the form or device (setup's validate() does).
#pragma once

#include <petscsys.h>

#include <string>

namespace femgpu {

struct ScheduleRequest;  // mat_context.h

// Sets *r's strategy, words and (where the text names one) precision from `text`;
// `option` names the option in errors.
PetscErrorCode ScheduleRequestFromText_FEMGPU(const char *option, const std::string &text, ScheduleRequest *r);

}  // namespace femgpu
