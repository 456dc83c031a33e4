// Tensor algebra on scalarized values: each operation spelled out on components.
#include <numeric>

#include "ir/scalarize.h"

namespace femgpu {

namespace {

size_t size_of(const Shape &s)
{
  return static_cast<size_t>(std::accumulate(s.begin(), s.end(), 1, std::multiplies<int>()));
}

Tensor like(const Shape &s) { return Tensor{s, std::vector<int>(size_of(s), -1)}; }

// out[i, j] = sum_k a[i, k] b[k, j] with a flattened to (m, n) and b to (n, p).
Tensor contract(Program &p, const Tensor &a, const Tensor &b, const Shape &out_shape, size_t n)
{
  Tensor out = like(out_shape);
  const size_t m = a.ids.size() / n, q = b.ids.size() / n;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < q; ++j) {
      int s = p.zero();
      for (size_t k = 0; k < n; ++k) s = p.add(s, p.mul(a.ids[i * n + k], b.ids[k * q + j]));
      out.ids[i * q + j] = s;
    }
  return out;
}

Tensor transpose_of(const Tensor &a)
{
  const int r = a.shape[0], c = a.shape[1];
  Tensor out = like({c, r});
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) out.ids[static_cast<size_t>(j * r + i)] = a.ids[static_cast<size_t>(i * c + j)];
  return out;
}

// (a + s * a^T) * scale: sym (s=1) and skew (s=-1), both with scale 1/2.
Tensor symmetrize(Program &p, const Tensor &a, bool skew)
{
  Tensor t = transpose_of(a), out = like(a.shape);
  int half = p.constant(0.5);
  for (size_t i = 0; i < a.ids.size(); ++i)
    out.ids[i] = p.mul(half, skew ? p.sub(a.ids[i], t.ids[i]) : p.add(a.ids[i], t.ids[i]));
  return out;
}

int trace_of(Program &p, const Tensor &a)
{
  const int n = a.shape[0];
  int s = p.zero();
  for (int i = 0; i < n; ++i) s = p.add(s, a.ids[static_cast<size_t>(i * n + i)]);
  return s;
}

// a x b of two 3-vectors.
std::vector<int> cross_ids(Program &p, const Tensor &a, const Tensor &b)
{
  std::vector<int> out(3);
  for (int i = 0; i < 3; ++i) {
    const size_t j = static_cast<size_t>((i + 1) % 3), k = static_cast<size_t>((i + 2) % 3);
    out[static_cast<size_t>(i)] = p.sub(p.mul(a.ids[j], b.ids[k]), p.mul(a.ids[k], b.ids[j]));
  }
  return out;
}

// dev(A) = A - tr(A) / n I.
Tensor deviatoric(Program &p, const Tensor &a)
{
  const int n = a.shape[0];
  int third = p.div(trace_of(p, a), p.constant(n));
  Tensor out = a;
  for (int i = 0; i < n; ++i) out.ids[static_cast<size_t>(i * n + i)] = p.sub(out.ids[static_cast<size_t>(i * n + i)], third);
  return out;
}

// Where A[indices...] starts in A's row-major entries (the leading indices fixed).
size_t index_offset(const Shape &shape, const std::vector<int> &indices)
{
  size_t offset = 0, stride = size_of(shape);
  for (size_t k = 0; k < indices.size(); ++k) {
    stride /= static_cast<size_t>(shape[k]);
    offset += static_cast<size_t>(indices[k]) * stride;
  }
  return offset;
}

}  // namespace

Tensor Scalarizer::algebra(const Expr &e)
{
  std::vector<Tensor> a;
  for (const Expr &o : e->operands) a.push_back((*this)(o));
  Tensor out = like(e->shape);
  switch (e->op) {
    case Op::Sum:
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = p_.add(a[0].ids[i], a[1].ids[i]);
      return out;
    case Op::Negate:
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = p_.neg(a[0].ids[i]);
      return out;
    case Op::Product: {  // scalar times tensor, either side
      bool left_scalar = a[0].shape.empty();
      int s = left_scalar ? a[0].ids[0] : a[1].ids[0];
      const Tensor &t = left_scalar ? a[1] : a[0];
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = p_.mul(s, t.ids[i]);
      return out;
    }
    case Op::Division:
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = p_.div(a[0].ids[i], a[1].ids[0]);
      return out;
    case Op::Power: out.ids[0] = p_.pow(a[0].ids[0], a[1].ids[0]); return out;
    case Op::Inner: {
      int s = p_.zero();
      for (size_t i = 0; i < a[0].ids.size(); ++i) s = p_.add(s, p_.mul(a[0].ids[i], a[1].ids[i]));
      out.ids[0] = s;
      return out;
    }
    case Op::Dot: return contract(p_, a[0], a[1], e->shape, static_cast<size_t>(a[0].shape.back()));
    case Op::Outer:
      for (size_t i = 0; i < a[0].ids.size(); ++i)
        for (size_t j = 0; j < a[1].ids.size(); ++j) out.ids[i * a[1].ids.size() + j] = p_.mul(a[0].ids[i], a[1].ids[j]);
      return out;
    case Op::Cross: out.ids = cross_ids(p_, a[0], a[1]); return out;
    case Op::Transpose: return transpose_of(a[0]);
    case Op::Trace: out.ids[0] = trace_of(p_, a[0]); return out;
    case Op::Determinant: out.ids[0] = det_ids(p_, a[0].ids, a[0].shape[0]); return out;
    case Op::Inverse: {
      int n = a[0].shape[0];
      out.ids = inverse_ids(p_, a[0].ids, n, det_ids(p_, a[0].ids, n));
      return out;
    }
    case Op::Sym: return symmetrize(p_, a[0], false);
    case Op::Skew: return symmetrize(p_, a[0], true);
    case Op::Dev: return deviatoric(p_, a[0]);
    case Op::Indexed: {
      const size_t offset = index_offset(a[0].shape, e->indices);
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = a[0].ids[offset + i];
      return out;
    }
    case Op::ListTensor: {
      size_t k = 0;
      for (const Tensor &t : a)
        for (int id : t.ids) out.ids[k++] = id;
      return out;
    }
    default: throw FormError("internal: no scalarization for this operation");
  }
}

}  // namespace femgpu
