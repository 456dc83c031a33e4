// The assembled operator's kernel (kernel/sliced_spmv.h) compiles with NVRTC for sm_80 and
// sm_90 and reads its slices through coalesced loads and x through the read-only cache;
// the assembled schedule builds as a CudaKernel without a device (as the tuner's compile
// threads build it), and a form it cannot take is refused before compiling. With a GPU,
// the kernel on a mesh's DeviceActionData adds the reference action onto a random output,
// and applies again after its constants change (its values reassembled).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/sliced_spmv.h"
#include "reference/reference_action.h"
#include "runtime/cuda_action.h"
#include "runtime/cuda_driver.h"
#include "runtime/nvrtc_compile.h"
#include "support/lattice_arrays.h"

using namespace femgpu;

namespace {

ActionIR lowered(const char *form, int dim, int degree, int components)
{
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, components}, 1};
  return lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
}

}  // namespace

TEST_CASE("NVRTC compiles the sliced ELLPACK SpMV", "[nvrtc][assembled]")
{
  for (const char *arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    CompiledCubin cubin;
    REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::sliced_spmv_cuda_source(), kernel::kSlicedSpmvName, arch));
    CHECK(cubin.cubin.size() > 0);
  }
  const std::string ptx = nvrtc_ptx(kernel::sliced_spmv_cuda_source(), kernel::kSlicedSpmvName);
  CHECK(ptx.find("ld.global.nc.f64") != std::string::npos);  // x through the read-only cache
}

TEST_CASE("The assembled schedule compiles as a CudaKernel, and a form with coefficients is refused", "[nvrtc][assembled]")
{
  const ActionIR mass = lowered("mass", 3, 1, 1);
  const Tabulation tab = tabulate_action(mass, default_share_dir());
  CudaKernel k(mass, tab, Schedule::assembled(), "sm_90", 227 * 1024, 1024);
  CHECK(k.source().find(kernel::kSlicedSpmvName) != std::string::npos);
  CHECK(k.assembled() == nullptr);  // assembled at its first launch, on that launch's data
  const ActionIR hyper = lowered("hyperelasticity", 3, 1, 3);
  const Tabulation hyper_tab = tabulate_action(hyper, default_share_dir());
  CHECK_THROWS_WITH(CudaKernel(hyper, hyper_tab, Schedule::assembled(), "sm_90", 227 * 1024, 1024), Catch::Contains("without coefficient functions"));
  CHECK_THROWS_WITH(CudaKernel(mass, tab, Schedule::assembled().with_precision(Precision::FP32), "sm_90", 227 * 1024, 1024),
                    Catch::Contains("no fp32 variant"));
}

TEST_CASE("The assembled operator adds the reference action on the GPU (GPU only)", "[cuda][assembled]")
{
  if (!cuda::device_available()) {
    WARN("no CUDA device: the assembled operator is not run");
    return;
  }
  const cuda::DeviceInfo info = cuda::open_device(0);
  for (auto [form, dim, degree, components] : {std::tuple{"helmholtz", 3, 1, 1}, std::tuple{"elasticity", 2, 2, 2}}) {
    INFO(form << " " << dim << "D P" << degree);
    const ActionIR ir = lowered(form, dim, degree, components);
    const Tabulation tab = tabulate_action(ir, default_share_dir());
    const LatticeMesh m = lattice_mesh(dim, 4, degree, components);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> x(m.n_dofs()), y0(m.n_dofs());
    for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y0[i] = u(rng);
    ActionArrays a = test::lattice_arrays(ir, m, x, m.map);
    CudaKernel k(ir, tab, Schedule::assembled(), info);
    DeviceActionData data(ir, tab, a, m.n_dofs(), Precision::FP64);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1)
        for (double &c : a.constants) c += 1.25;  // new constants: the values are reassembled
      data.upload_values(a);
      data.upload_out(y0.data());
      k.launch(data);
      std::vector<double> got(m.n_dofs()), want = y0;
      data.download_out(got.data());
      reference_action(ir, tab, a, want.data());
      double scale = 0, error = 0;
      for (size_t r = 0; r < want.size(); ++r) {
        scale = std::max(scale, std::abs(want[r] - y0[r]));
        error = std::max(error, std::abs(got[r] - want[r]));
      }
      INFO("pass " << pass);
      CHECK(scale > 0);
      CHECK(error <= 1e-12 * scale);
    }
    REQUIRE(k.assembled() != nullptr);
  }
}
