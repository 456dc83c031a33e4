// What the OpenCL kernel tests share: one OpenCL runtime for the test binary (its
// program cache spans tests), the error measure against a pre-filled output, and one
// generated action kernel run against the CPU reference, and the covering sample run
// that way.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/opencl_runtime.h"
#include "action_cases.h"

namespace femgpu::test {

inline OpenCLRuntime &opencl_runtime()
{
  static OpenCLRuntime r;
  return r;
}

// max |got - want| relative to the size of the result and of the pre-filled output; a
// non-finite entry counts as infinitely wrong.
inline double relative_error(const std::vector<double> &got, const std::vector<double> &want, const std::vector<double> &prefill)
{
  double err = 0.0, scale = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::isfinite(got[i]) ? std::fabs(got[i] - want[i]) : INFINITY);
    scale = std::max(scale, std::fabs(want[i] - prefill[i]) + std::fabs(prefill[i]));
  }
  return err / scale;
}

// The OpenCL kernel of schedule s adds d's action to d.prefill; its error against the
// reference. `source`, when given, receives the emitted OpenCL C.
inline double opencl_action_error(const ActionData &d, const Schedule &s, std::string *source = nullptr)
{
  std::vector<double> want = d.prefill, got = d.prefill;
  reference_action(d.ir, d.tab, d.arrays(), want.data());
  kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, s);
  const std::string text = kernel::emit_opencl(k);
  if (source) *source = text;
  opencl_runtime().apply(k, text, d.ir, d.tab, d.arrays(), got.data(), got.size());
  return relative_error(got, want, d.prefill);
}

// Every kernel of dim's covering sample (action_cases.h) that `keep` takes, with the
// schedule `variant` makes of its own, on 37 cells (several groups, the last one partly
// past n_cells) drawn from `seed`: its OpenCL action matches the reference, and
// `inspect`, when given, checks its source. Returns how many kernels ran.
inline int check_sample_kernels(int dim, unsigned seed, const std::function<bool(const Candidate &)> &keep,
                                const std::function<Schedule(const Schedule &)> &variant,
                                const std::function<void(const std::string &)> &inspect = nullptr)
{
  std::mt19937 rng(seed);
  const std::vector<FormCase> forms = form_cases();
  int ran = 0;
  for (const Candidate &c : kernel_sample(dim)) {
    if (!keep(c)) continue;
    ActionData d = make_action(forms[c.form], c.dim, c.degree, 37, rng);
    const Schedule s = variant(candidate_schedule(c, d));
    INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << " Q " << d.tab.n_points() << ": " << to_string(s));
    std::string source;
    CHECK(opencl_action_error(d, s, &source) < 1e-12);
    if (inspect) inspect(source);
    ++ran;
  }
  return ran;
}

}  // namespace femgpu::test
