// The p-multigrid transfer kernels (kernel/build_transfer.h) through OpenCL (PoCL)
// equal their CPU reference on random tables, maps (with constrained -1 entries and
// DOFs shared between cells) and weights, forward and transposed, scalar and vector,
// including cells with more output DOFs than one group row; and the reference's
// transpose is the transpose: <T x, y> = <x, T^T y>.
#include <catch2/catch.hpp>

#include <numeric>
#include <random>

#include "fem/quadrature.h"
#include "runtime/transfer_backend.h"

using namespace femgpu;

namespace {

TransferData random_transfer(int rows, int cols, int components, int cells, std::mt19937 &rng)
{
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  TransferData d;
  d.shape = {rows, cols, components};
  d.n_cells = cells;
  d.table.resize(static_cast<size_t>(rows * cols));
  for (double &t : d.table) t = value(rng);
  // Vectors shorter than cells x DOFs, so that cells share entries (atomics collide).
  d.n_rows = static_cast<size_t>(cells * rows * components / 2 + 1);
  d.n_cols = static_cast<size_t>(cells * cols * components / 2 + 1);
  std::uniform_int_distribution<int> row(-1, static_cast<int>(d.n_rows) - 1), col(-1, static_cast<int>(d.n_cols) - 1);
  std::vector<int> row_map, col_map;
  for (int i = 0; i < cells * rows * components; ++i) row_map.push_back(row(rng));
  for (int i = 0; i < cells * cols * components; ++i) col_map.push_back(col(rng));
  d.row_map = SharedIndices::copy_of(std::move(row_map));
  d.col_map = SharedIndices::copy_of(std::move(col_map));
  for (size_t i = 0; i < d.n_rows; ++i) d.row_weight.push_back(0.25 + 0.5 * (value(rng) + 1.0));
  return d;
}

std::vector<double> random_vector(size_t n, std::mt19937 &rng)
{
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v) x = value(rng);
  return v;
}

}  // namespace

TEST_CASE("OpenCL transfer kernels equal the CPU reference", "[transfer][opencl]")
{
  std::mt19937 rng(11);
  // (row basis, column basis, components): P2 <- P1 (2D), P4 <- P2 (2D), P3 <- P1 vector
  // (3D), and 3D P6 vector <- P3: 84 x 3 output DOFs, several passes of 128 work-items.
  for (const auto &[rows, cols, components] : std::vector<std::tuple<int, int, int>>{{6, 3, 1}, {15, 6, 1}, {20, 4, 3}, {84, 20, 3}})
    for (auto direction : {TransferDirection::Forward, TransferDirection::Transpose}) {
      INFO(rows << " x " << cols << " x " << components << (direction == TransferDirection::Forward ? " forward" : " transpose"));
      TransferData d = random_transfer(rows, cols, components, 37, rng);
      const bool forward = direction == TransferDirection::Forward;
      const std::vector<double> in = random_vector(forward ? d.n_cols : d.n_rows, rng);
      std::vector<double> expected = random_vector(forward ? d.n_rows : d.n_cols, rng), got = expected;
      auto cpu = make_transfer_backend("cpu", d, 0);
      auto opencl = make_transfer_backend("opencl", d, 0);
      cpu->apply(direction, in.data(), expected.data());
      opencl->apply(direction, in.data(), got.data());
      for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(expected[i]).margin(1e-13));
    }
}

TEST_CASE("The reference transfer's transpose is its transpose", "[transfer]")
{
  std::mt19937 rng(12);
  TransferData d = random_transfer(10, 4, 2, 23, rng);
  const std::vector<double> x = random_vector(d.n_cols, rng), y = random_vector(d.n_rows, rng);
  std::vector<double> tx(d.n_rows, 0.0), ty(d.n_cols, 0.0);
  auto cpu = make_transfer_backend("cpu", d, 0);
  cpu->apply(TransferDirection::Forward, x.data(), tx.data());
  cpu->apply(TransferDirection::Transpose, y.data(), ty.data());
  const double a = std::inner_product(tx.begin(), tx.end(), y.begin(), 0.0), b = std::inner_product(x.begin(), x.end(), ty.begin(), 0.0);
  CHECK(a == Approx(b).epsilon(1e-13));
  CHECK(std::abs(a) > 1e-3);  // not vacuous
}

TEST_CASE("An unknown transfer backend is an error naming the ones there are", "[transfer]")
{
  std::mt19937 rng(13);
  CHECK_THROWS_WITH(make_transfer_backend("vulkan", random_transfer(3, 3, 1, 2, rng), 0),
                    Catch::Contains("no transfer backend 'vulkan'"));
}
