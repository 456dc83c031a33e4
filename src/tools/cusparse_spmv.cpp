// cuSPARSE SpMV timed with CUDA events (cusparse_spmv.h).
#include "tools/cusparse_spmv.h"

#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tune/median.h"
#include "runtime/cuda_driver.h"
#include "tune/tuner.h"  // TuneSettings: the warm-ups and run counts of femgpu's kernel timing

namespace femgpu {

namespace {

void check(cusparseStatus_t status, const char *call)
{
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("SpMV baseline: ") + call + " failed: " + cusparseGetErrorString(status));
}

// cuSPARSE's objects, each destroyed by its own call even when a later one fails.
struct DestroyHandle {
  void operator()(cusparseHandle_t h) const { cusparseDestroy(h); }
};
struct DestroyMatrix {
  void operator()(cusparseSpMatDescr_t m) const { cusparseDestroySpMat(m); }
};
struct DestroyVector {
  void operator()(cusparseDnVecDescr_t v) const { cusparseDestroyDnVec(v); }
};
using Handle = std::unique_ptr<std::remove_pointer_t<cusparseHandle_t>, DestroyHandle>;
using Matrix = std::unique_ptr<std::remove_pointer_t<cusparseSpMatDescr_t>, DestroyMatrix>;
using Vector = std::unique_ptr<std::remove_pointer_t<cusparseDnVecDescr_t>, DestroyVector>;

void *pointer(const cuda::Buffer &b) { return reinterpret_cast<void *>(static_cast<std::uintptr_t>(b.device_pointer())); }

Handle make_handle()
{
  cusparseHandle_t h = nullptr;
  check(cusparseCreate(&h), "cusparseCreate");
  Handle handle(h);
  // The NULL stream, the one cuda::EventSeries records on (the legacy default stream of
  // the primary context): the events then bracket the SpMVs in order.
  check(cusparseSetStream(h, nullptr), "cusparseSetStream");
  return handle;
}

Matrix make_matrix(const DeviceCsr &a)
{
  if (a.index_bytes != 4 && a.index_bytes != 8) throw std::logic_error("SpMV baseline: CSR indices of " + std::to_string(a.index_bytes) + " bytes");
  const cusparseIndexType_t index = a.index_bytes == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  cusparseSpMatDescr_t m = nullptr;
  check(cusparseCreateCsr(&m, a.rows, a.columns, a.nonzeros, a.row_offsets, a.column_indices, a.values, index, index, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "cusparseCreateCsr");
  return Matrix(m);
}

Vector make_vector(cuda::Buffer &values, long long size)
{
  cusparseDnVecDescr_t v = nullptr;
  check(cusparseCreateDnVec(&v, size, pointer(values), CUDA_R_64F), "cusparseCreateDnVec");
  return Vector(v);
}

cuda::Buffer random_vector(long long size)
{
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> host(static_cast<size_t>(size));
  for (double &v : host) v = u(rng);
  cuda::Buffer b(host.size() * sizeof(double));
  b.upload(host.data(), b.size());
  return b;
}

// y = A x with its workspace: the plan cuSPARSE's generic API asks for (descriptors, then
// the buffer size for exactly these operands, then the buffer), run as often as timed.
// alpha and beta are host values of the compute type, FP64 (the handle's default pointer
// mode, CUSPARSE_POINTER_MODE_HOST).
class Spmv {
 public:
  explicit Spmv(const DeviceCsr &a)
      : x_data_(random_vector(a.columns)), y_data_(static_cast<size_t>(a.rows) * sizeof(double)), handle_(make_handle()),
        matrix_(make_matrix(a)), x_(make_vector(x_data_, a.columns)), y_(make_vector(y_data_, a.rows))
  {
    size_t bytes = 0;
    check(cusparseSpMV_bufferSize(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.get(), x_.get(), &beta_, y_.get(), CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
          "cusparseSpMV_bufferSize");
    work_ = cuda::Buffer(bytes);  // cuMemAlloc: the runtime's cudaMalloc allocates in the same primary context
    cuda::memset_zero(y_data_.device_pointer(), y_data_.size());  // beta = 0, but y is never left uninitialised
#if CUDART_VERSION >= 12040
    // The optional analysis of the matrix for the SpMVs that follow: PETSc's MatMult runs
    // it before its first SpMV (aijcusparse.cu, CUDA >= 12.4), so the baseline's two
    // columns both have it.
    check(cusparseSpMV_preprocess(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.get(), x_.get(), &beta_, y_.get(), CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, work_or_null()),
          "cusparseSpMV_preprocess");
#endif
  }
  void run()
  {
    check(cusparseSpMV(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_.get(), x_.get(), &beta_, y_.get(), CUDA_R_64F,
                       CUSPARSE_SPMV_ALG_DEFAULT, work_or_null()),
          "cusparseSpMV");
  }

 private:
  void *work_or_null() const { return work_.size() ? pointer(work_) : nullptr; }
  const double alpha_ = 1, beta_ = 0;
  cuda::Buffer x_data_, y_data_, work_;
  Handle handle_;
  Matrix matrix_;
  Vector x_, y_;
};

}  // namespace

double time_cusparse_spmv(const DeviceCsr &a)
{
  Spmv spmv(a);
  const TuneSettings protocol;  // time_kernel's defaults: 5 warm-ups, >= 15 runs and 0.2 s, <= 400 runs
  for (int i = 0; i < std::max(protocol.warmups, 1); ++i) spmv.run();  // the first also loads cuSPARSE's kernels
  cuda::synchronize();
  constexpr int kBatch = 16;
  cuda::EventSeries events(kBatch + 1);
  std::vector<double> ms;
  double total = 0;
  while ((static_cast<int>(ms.size()) < protocol.min_runs || total < protocol.min_seconds * 1e3) && static_cast<int>(ms.size()) < protocol.max_runs) {
    const int batch = std::min(kBatch, protocol.max_runs - static_cast<int>(ms.size()));
    spmv.run();  // the lead: the GPU never waits for the host inside a timed run
    events.record(0);
    for (int i = 0; i < batch; ++i) {
      spmv.run();
      events.record(i + 1);
    }
    events.synchronize(batch);
    for (int i = 0; i < batch; ++i) ms.push_back(events.ms(i)), total += ms.back();
  }
  return median(ms);
}

}  // namespace femgpu
