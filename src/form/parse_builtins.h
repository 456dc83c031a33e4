// The predefined names of a form file (u, v, x, d, dx, pi, e) and its functions
// (grad, inner, Coefficient, derivative, ...), and calling a value.
//
// Takes: a Context and evaluated call arguments (positional and keyword, with positions).
// Returns: the call's Value; argument-count, keyword and type errors are located at
// the call (or at the offending argument), builder errors at the call.
// Does not: parse (parse_grammar.h) or apply operators (parse_ops.h).
#pragma once

#include <string>
#include <vector>

#include "form/parse_value.h"

namespace femgpu::parse {

struct CallArgs {
  std::vector<Value> pos;
  std::vector<Loc> pos_loc;
  std::vector<std::string> kw_names;
  std::vector<Value> kw;
  std::vector<Loc> kw_loc;
};

// form_mode: a whole form file (u, v, dx, Coefficient, ...); otherwise a lone
// interpolation expression in x, d, pi and numbers.
void seed_names(Context &ctx, bool form_mode);

Value call_value(Context &ctx, const Value &callee, const CallArgs &args, Loc loc);

// A Coefficient/Constant name must be a short identifier: generated code may use it.
bool is_identifier(const std::string &s);

// The closest known name within edit distance 2 ("" if none), for "did you mean".
std::string suggest_name(const Context &ctx, const std::string &name);

// Implemented in parse_builtins_form.cpp: the functions that need a form.
Value call_form_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc);
Value call_measure(const Value &measure, const CallArgs &args, Loc loc);
bool is_form_function(const std::string &name);

}  // namespace femgpu::parse
