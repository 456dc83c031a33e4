// -mat_fem_gpu_schedule's text read through the table of schedule words (schedule_text_option.h).
#include "petsc/mat/schedule_text_option.h"

#include "form/quoted_text.h"
#include "schedule/schedule_words.h"
#include "petsc/mat/mat_context.h"

namespace femgpu {

PetscErrorCode ScheduleRequestFromText_FEMGPU(const char *option, const std::string &text, ScheduleRequest *r)
{
  PetscFunctionBegin;
  try {
    const ScheduleText t = read_schedule_text(text);
    // The text alone fixes the schedule: what it leaves out is completed at setup.
    r->strategy = strategy_name(t.strategy);
    r->forced = t;
    if (t.precision) r->precision = *t.precision == Precision::FP64 ? "fp64" : "fp32";
  } catch (const ScheduleTextError &e) {
    // The reason before the text: PETSc cuts long messages, and a text may be 4,095 characters.
    SETERRQ(PETSC_COMM_SELF, e.out_of_range ? PETSC_ERR_ARG_OUTOFRANGE : PETSC_ERR_ARG_WRONG, "%s: %s; given %s", option, e.why.c_str(),
            quoted_excerpt(text).c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
