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

// Keyword arguments by name, with where each was given.
struct Keywords {
  std::map<std::string, std::pair<Value, Loc>> given;
  const Value *get(const std::string &k) const
  {
    auto it = given.find(k);
    return it == given.end() ? nullptr : &it->second.first;
  }
  Loc loc(const std::string &k) const { return given.at(k).second; }
};

// Checks a call's positional count (lo..hi) and keyword names, located at the call.
Keywords check_call(const std::string &name, const CallArgs &args, int lo, int hi,
                    const std::vector<std::string> &keywords, Loc loc);
// A Python int in lo..hi, or an error naming `what`.
int small_int(const Value &v, Loc loc, const std::string &what, int lo, int hi);

// Implemented in parse_builtins_form.cpp: the functions that need a form.
Value call_form_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc);
Value call_measure(const Value &measure, const CallArgs &args, Loc loc);
bool is_form_function(const std::string &name);

// Implemented in parse_ufl_elements.cpp: UFL's elements, cells, function spaces and the
// functions made on them (TrialFunction(V), Coefficient(V), Constant(cell), ...).
void seed_ufl_names(Context &ctx);
bool is_ufl_call(const std::string &name, const CallArgs &args);  // the UFL spelling of a call
Value call_ufl_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc);
Value mixed_product(const Value &a, const Value &b, Loc loc);  // e1 * e2: MixedElement(e1, e2)

}  // namespace femgpu::parse
