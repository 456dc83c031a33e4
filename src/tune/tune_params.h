// The tuning parameters, each declared once (STYLE.md habit 14): name, kind, range, help,
// whether it enters the tuning cache's key, and the TuneSettings field it sets. These
// are research knobs (search bounds, candidate counts of the first list, the cost
// model's barrier, the timing cutoff); they live in the tuning plan's text as
// "param name=value ..." (tune_plan.h), not as options of their own. Their parsing and
// range checks, -mat_fem_gpu_tune_plan's -help, the cache key's settings text and the
// docs table of docs/petsc.md are all made from this table. Defaults are TuneSettings{}'s.
//
// Takes: a name and a value text. Returns: the settings with it set, or a TuneParamError
// naming the parameter, the value and its range or choices.
// Does not: know PETSc or the plan's rounds.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tune/tuner.h"

namespace femgpu {

enum class ParamKind { Integer, Real, Bool, IntegerList, Choice };

struct TuneParam {
  const char *name;
  ParamKind kind;
  double min, max;                    // Integer, Real and each IntegerList entry
  bool zero_off;                      // Real: 0 is also allowed (off), else values from min
  std::vector<const char *> choices;  // Choice
  bool in_key;                        // changes which candidates are timed (the cache key)
  const char *help;
  std::function<std::string(const TuneSettings &)> get;
  std::function<void(TuneSettings *, const std::string &)> set;  // a value already checked
};

const std::vector<TuneParam> &tune_params();

// out_of_range: a value outside the parameter's range or choices (else unknown name or
// unreadable value).
struct TuneParamError : std::invalid_argument {
  TuneParamError(const std::string &what, bool out_of_range) : std::invalid_argument(what), out_of_range(out_of_range) {}
  bool out_of_range;
};

// Checks `value` against `name`'s declaration and sets it in *s.
void set_tune_param(TuneSettings *s, const std::string &name, const std::string &value);
// `name`'s value in `s`, as the plan writes it (throws TuneParamError for an unknown name).
std::string tune_param_value(const TuneSettings &s, const std::string &name);
// "0-1000", "0-1", "0 or 1-1e+06", "0|1", "unrolled|compiler", "1-1024,..."
std::string param_values(const TuneParam &p);

// "candidates=9 eta_alias_min=0.8 ...": the parameters that enter the cache key.
std::string tune_params_text(const TuneSettings &s);
// "param candidates=0-1000 ...": -mat_fem_gpu_tune_plan's -help.
std::string tune_params_help();
// The Markdown table of parameters, with TuneSettings{}'s defaults, as docs/petsc.md holds it.
std::string tune_params_docs_table();

}  // namespace femgpu
