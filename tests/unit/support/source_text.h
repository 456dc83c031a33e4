// A sampled kernel's CUDA source, and counting what it (or its PTX) contains: what the
// kernel-shape tests of the schedule options share.
#pragma once

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"
#include "action_cases.h"

namespace femgpu::test {

inline std::string action_cuda_source(const ActionData &d, const Schedule &s) { return kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, s)); }

// The IR of one form text ("a = ..." after "from ufl import *") on P_degree Lagrange
// elements of `components` components, and the CUDA source of its kernel for `schedule`.
inline ActionIR form_text_ir(const std::string &form_text, CellType cell, int degree, int components = 1)
{
  FormSignature sig{cell, Element{degree, components}, 1};
  return lower_form(parse_form_text("from ufl import *\n" + form_text + "\n", "t.ufl", sig).a);
}
inline std::string form_cuda_source(const std::string &form_text, CellType cell, int degree, const std::string &schedule, int components = 1)
{
  const ActionIR ir = form_text_ir(form_text, cell, degree, components);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  return kernel::emit_cuda(kernel::build_kernel(ir, tab, parse_schedule(schedule)));
}

// Matches of the regular expression `re` in `text`.
inline long regex_count(const std::string &text, const std::string &re)
{
  const std::regex r(re);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator());
}

// Occurrences of `what` in `text`.
inline std::size_t count_of(const std::string &text, const std::string &what)
{
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace femgpu::test
