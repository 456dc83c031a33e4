// Free indices, expanded while parsing; see parse_indices.h.
#include "form/parse_indices.h"

#include <algorithm>
#include <functional>
#include <map>

namespace femgpu::parse {

namespace {

using Assignment = std::map<int, int>;  // index id -> its value in one component
using Leaf = std::function<Expr(const Assignment &)>;

constexpr int64_t kMaxIndexWork = 1 << 16;  // components x summed terms in one operation

// Index ids with their extents, in axis order.
struct Axes {
  std::vector<int> ids, extents;
  void add(int id, int extent) { ids.push_back(id), extents.push_back(extent); }
  int64_t count() const
  {
    int64_t n = 1;
    for (int e : extents) n *= e;
    return n;
  }
};

bool contains(const std::vector<int> &v, int id) { return std::find(v.begin(), v.end(), id) != v.end(); }

Shape value_shape(const Value &v) { return Shape(v.e->shape.begin() + static_cast<long>(v.free.size()), v.e->shape.end()); }

int extent_of(const Value &v, int id)
{
  return v.e->shape[static_cast<size_t>(std::find(v.free.begin(), v.free.end(), id) - v.free.begin())];
}

Axes free_axes(const Value &v)
{
  Axes a;
  for (int id : v.free) a.add(id, extent_of(v, id));
  return a;
}

std::string quoted(const Context &ctx, int id) { return "'" + ctx.index_name(id) + "'"; }

std::string names(const Context &ctx, const std::vector<int> &ids)
{
  std::string s;
  for (int id : ids) s += (s.empty() ? "" : ", ") + ctx.index_name(id);
  return "(" + s + ")";
}

// The component of v at the free-index values in asg: an expression of v's value shape.
Expr component(const Value &v, const Assignment &asg)
{
  if (v.free.empty()) return v.e;
  std::vector<int> at;
  for (int id : v.free) at.push_back(asg.at(id));
  return indexed(v.e, at);
}

// Calls f for every assignment of `axes` (row-major), on top of `base`.
void for_each(const Axes &axes, Assignment asg, const std::function<void(const Assignment &)> &f, size_t k = 0)
{
  if (k == axes.ids.size()) return f(asg);
  for (int n = 0; n < axes.extents[k]; ++n) {
    asg[axes.ids[k]] = n;
    for_each(axes, asg, f, k + 1);
  }
}

// The sum of leaf over the summed axes (UFL's IndexSum), in row-major order as the
// tensor builders sum, so inner(a, b) and a[i]*b[i] lower alike.
Expr sum_over(const Axes &summed, const Assignment &asg, const Leaf &leaf)
{
  Expr total;
  for_each(summed, asg, [&](const Assignment &a) { total = total ? add(total, leaf(a)) : leaf(a); });
  return total;
}

// A tensor of shape s whose entry at m is entry(m) (scalars).
Expr tensor_of(const Shape &s, const std::function<Expr(const std::vector<int> &)> &entry, std::vector<int> m = {})
{
  if (m.size() == s.size()) return entry(m);
  std::vector<Expr> rows;
  for (int n = 0; n < s[m.size()]; ++n) {
    m.push_back(n);
    rows.push_back(tensor_of(s, entry, m));
    m.pop_back();
  }
  return as_vector(rows);
}

// The value with free axes `free` whose component at asg is the sum of leaf over
// `summed`; every component has the same shape.
Value assemble(Context &ctx, const Axes &free, const Axes &summed, const Leaf &leaf, std::vector<int> summed_ids, Loc loc)
{
  if (free.count() * summed.count() > kMaxIndexWork || free.count() > kMaxTensorSize)
    fail_at(loc, "index expression too large (" + std::to_string(free.count()) + " components, " +
                     std::to_string(summed.count()) + " terms each)");
  std::function<Expr(Assignment, size_t)> build = [&](Assignment asg, size_t k) -> Expr {
    if (k == free.ids.size()) return sum_over(summed, asg, leaf);
    std::vector<Expr> rows;
    for (int n = 0; n < free.extents[k]; ++n) {
      asg[free.ids[k]] = n;
      rows.push_back(build(asg, k + 1));
    }
    return as_vector(rows);
  };
  Value out = Value::of_expr(ctx.build(loc, [&] { return build({}, 0); }));
  out.free = free.ids;
  if (!out.free.empty()) out.summed = std::move(summed_ids);
  return out;
}

Value as_value(const Value &v, Loc loc)
{
  if (v.kind == Kind::Expr) return v;
  if (v.is_number()) return Value::of_expr(literal(v.number()));
  fail_at(loc, "free indices need an expression, got " + type_name(v));
}

void same_extent(const Context &ctx, int id, int a, int b, Loc loc)
{
  if (a != b)
    fail_at(loc, "index " + quoted(ctx, id) + " runs over " + std::to_string(a) + " values on one side and " + std::to_string(b) +
                     " on the other");
}

[[noreturn]] void three_times(const Context &ctx, int id, Loc loc)
{
  fail_at(loc, "index " + quoted(ctx, id) + " appears three times (it is summed already): an index is used once (free) or "
                   "twice (summed); use another index");
}

std::vector<int> united(std::vector<int> a, const std::vector<int> &b)
{
  for (int id : b)
    if (!contains(a, id)) a.push_back(id);
  return a;
}

Value free_sum(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc)
{
  std::vector<int> fa = a.free, fb = b.free;
  std::sort(fa.begin(), fa.end());
  std::sort(fb.begin(), fb.end());
  if (fa != fb)
    fail_at(loc, "cannot " + std::string(op == "+" ? "add" : "subtract") + " expressions with different free indices: " +
                     names(ctx, a.free) + " and " + names(ctx, b.free));
  for (int id : a.free) same_extent(ctx, id, extent_of(a, id), extent_of(b, id), loc);
  Leaf leaf = [&](const Assignment &asg) {
    return op == "+" ? add(component(a, asg), component(b, asg)) : sub(component(a, asg), component(b, asg));
  };
  return assemble(ctx, free_axes(a), Axes{}, leaf, united(a.summed, b.summed), loc);
}

Value free_product(Context &ctx, const Value &a, const Value &b, Loc loc)
{
  Axes free, summed;
  for (int id : a.free) {
    if (contains(b.summed, id)) three_times(ctx, id, loc);
    if (!contains(b.free, id)) free.add(id, extent_of(a, id));
  }
  for (int id : b.free) {
    if (contains(a.summed, id)) three_times(ctx, id, loc);
    if (!contains(a.free, id)) {
      free.add(id, extent_of(b, id));
      continue;
    }
    same_extent(ctx, id, extent_of(a, id), extent_of(b, id), loc);
    summed.add(id, extent_of(b, id));
  }
  if (!summed.ids.empty() && !value_shape(a).empty() && !value_shape(b).empty())
    fail_at(loc, "index " + quoted(ctx, summed.ids[0]) + " is repeated in a product of two non-scalar expressions (shapes " +
                     shape_string(value_shape(a)) + " and " + shape_string(value_shape(b)) + "); index them down to scalars");
  Leaf leaf = [&](const Assignment &asg) { return mul(component(a, asg), component(b, asg)); };
  return assemble(ctx, free, summed, leaf, united(united(a.summed, b.summed), summed.ids), loc);
}

}  // namespace

bool has_free_indices(const Value &v) { return v.kind == Kind::Expr && !v.free.empty(); }

Value free_binary(Context &ctx, const std::string &op, const Value &a0, const Value &b0, Loc loc)
{
  Value a = as_value(a0, loc), b = as_value(b0, loc);
  if (op == "+" || op == "-") return free_sum(ctx, op, a, b, loc);
  if (op == "*") return free_product(ctx, a, b, loc);
  if (op == "/" && b.free.empty()) {
    Leaf leaf = [&](const Assignment &asg) { return divide(component(a, asg), b.e); };
    return assemble(ctx, free_axes(a), Axes{}, leaf, a.summed, loc);
  }
  fail_at(loc, "'" + op + "' of an expression with free indices " + names(ctx, op == "/" ? b.free : united(a.free, b.free)) +
                   (op == "/" ? ": the divisor must have none" : ": only +, -, * and / by a scalar take free indices"));
}

Value free_negate(Context &ctx, const Value &a, Loc loc)
{
  return assemble(ctx, free_axes(a), Axes{}, [&](const Assignment &asg) { return negate(component(a, asg)); }, a.summed, loc);
}

Value free_transpose(Context &ctx, const Value &a, Loc loc)
{
  return assemble(ctx, free_axes(a), Axes{}, [&](const Assignment &asg) { return transpose(component(a, asg)); }, a.summed, loc);
}

Value index_with_free(Context &ctx, const Value &a0, const std::vector<Value> &indices, const std::vector<Loc> &locs, Loc loc)
{
  if (a0.kind != Kind::Expr) fail_at(loc, "free indices such as i index expressions, not a " + type_name(a0));
  const Value &a = a0;
  const Shape s = value_shape(a);
  if (indices.size() > s.size())
    fail_at(loc, "too many indices (" + std::to_string(indices.size()) + ") for an expression of shape " + shape_string(s));
  Axes free = free_axes(a), summed;
  std::vector<int> fixed(indices.size(), -1);
  for (size_t k = 0; k < indices.size(); ++k) {
    const Value &iv = indices[k];
    if (iv.kind != Kind::Index) {
      int64_t n = to_int(iv, locs[k], "an index (an integer or a free index such as i)");
      int64_t m = n < 0 ? n + s[k] : n;
      if (m < 0 || m >= s[k])
        fail_at(locs[k], "index " + std::to_string(n) + " out of range for axis " + std::to_string(k) + " of shape " + shape_string(s));
      fixed[k] = static_cast<int>(m);
      continue;
    }
    const int id = static_cast<int>(iv.i);
    if (contains(a.summed, id) || contains(summed.ids, id)) three_times(ctx, id, locs[k]);
    if (contains(a.free, id))
      fail_at(locs[k], "index " + quoted(ctx, id) + " is already free in the expression it indexes; use another index");
    auto seen = std::find(free.ids.begin() + static_cast<long>(a.free.size()), free.ids.end(), id);
    if (seen == free.ids.end()) {
      free.add(id, s[k]);
      continue;
    }
    same_extent(ctx, id, free.extents[static_cast<size_t>(seen - free.ids.begin())], s[k], locs[k]);
    free.extents.erase(free.extents.begin() + (seen - free.ids.begin()));
    free.ids.erase(seen);
    summed.add(id, s[k]);  // A[i, i]: the trace
  }
  Leaf leaf = [&](const Assignment &asg) {
    std::vector<int> at;
    for (size_t k = 0; k < indices.size(); ++k) at.push_back(fixed[k] >= 0 ? fixed[k] : asg.at(static_cast<int>(indices[k].i)));
    return indexed(component(a, asg), at);
  };
  return assemble(ctx, free, summed, leaf, united(a.summed, summed.ids), loc);
}

namespace {

// One derivative of f along x_index: a new free index, a summed one (u[i].dx(i)), or a
// fixed axis.
Value dx_once(Context &ctx, const Value &f, const Value &index, Loc at, Loc loc)
{
  const int d = ctx.dim;
  const Shape s = value_shape(f);
  Value g = f;
  g.e = ctx.build(loc, [&] { return grad(f.e, d); });  // shape (free..., s..., d)
  Axes free = free_axes(f), summed;
  int fixed = -1, id = -1;
  if (index.kind == Kind::Index) {
    id = static_cast<int>(index.i);
    if (contains(f.summed, id)) three_times(ctx, id, at);
    if (!contains(f.free, id)) {
      free.add(id, d);
    } else {
      same_extent(ctx, id, extent_of(f, id), d, at);
      auto k = std::find(free.ids.begin(), free.ids.end(), id) - free.ids.begin();
      free.ids.erase(free.ids.begin() + k);
      free.extents.erase(free.extents.begin() + k);
      summed.add(id, d);
    }
  } else {
    int64_t n = to_int(index, at, ".dx() argument (an integer or a free index such as i)");
    if (n < 0 || n >= d)
      fail_at(at, ".dx(" + std::to_string(n) + "): the derivative index is out of range: x has " + std::to_string(d) +
                      " components here (0.." + std::to_string(d - 1) + ")");
    fixed = static_cast<int>(n);
  }
  Leaf leaf = [&](const Assignment &asg) {
    Expr gc = component(g, asg);  // g's free axes are f's: shape s + (d,)
    int axis = fixed >= 0 ? fixed : asg.at(id);
    return tensor_of(s, [&](std::vector<int> m) {
      m.push_back(axis);
      return indexed(gc, m);
    });
  };
  return assemble(ctx, free, summed, leaf, united(f.summed, summed.ids), loc);
}

}  // namespace

Value partial_derivative(Context &ctx, const Value &f, const CallArgs &args, Loc loc)
{
  if (!args.kw_names.empty()) fail_at(args.kw_loc[0], ".dx() got an unexpected keyword argument '" + args.kw_names[0] + "'");
  if (args.pos.empty()) fail_at(loc, ".dx() needs at least one index, e.g. u.dx(0) or u.dx(i)");
  if (f.kind != Kind::Expr) fail_at(loc, ".dx() needs an expression, got " + type_name(f));
  Value out = f;
  for (size_t k = 0; k < args.pos.size(); ++k) out = dx_once(ctx, out, args.pos[k], args.pos_loc[k], loc);
  return out;
}

Value bind_indices(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  const Value &f = args.pos[0];
  const Value &iv = args.pos[1];
  Loc floc = args.pos_loc[0], iloc = args.pos_loc[1];
  std::vector<int> ids;
  for (const Value &x : iv.kind == Kind::List ? iv.items : std::vector<Value>{iv}) {
    if (x.kind != Kind::Index) fail_at(iloc, name + "() indices must be free indices such as i, j, got " + type_name(x));
    if (contains(ids, static_cast<int>(x.i))) fail_at(iloc, name + "(): index " + quoted(ctx, static_cast<int>(x.i)) + " given twice");
    ids.push_back(static_cast<int>(x.i));
  }
  const int want = name == "as_vector" ? 1 : name == "as_matrix" ? 2 : -1;
  if (want > 0 && static_cast<int>(ids.size()) != want)
    fail_at(iloc, "rank mismatch: " + name + "(f, indices) makes a tensor of rank " + std::to_string(want) + " and needs " +
                      std::to_string(want) + (want == 1 ? " index" : " indices") + ", got " + std::to_string(ids.size()) +
                      " (as_tensor takes any number)");
  if (f.kind != Kind::Expr) fail_at(floc, name + "() needs an expression with free indices, got " + type_name(f));
  if (!value_shape(f).empty())
    fail_at(floc, "rank mismatch: " + name + "(f, indices) needs a scalar f with free indices, got shape " +
                      shape_string(value_shape(f)) + " (index it down to a scalar first)");
  Axes bound, rest;
  for (int id : ids) {
    if (!contains(f.free, id))
      fail_at(iloc, "index " + quoted(ctx, id) + " is not free in " + name + "()'s expression, whose free indices are " + names(ctx, f.free));
    bound.add(id, extent_of(f, id));
  }
  for (int id : f.free)
    if (!contains(ids, id)) rest.add(id, extent_of(f, id));
  Leaf leaf = [&](const Assignment &asg) {
    return tensor_of(Shape(bound.extents.begin(), bound.extents.end()), [&](const std::vector<int> &m) {
      Assignment full = asg;
      for (size_t k = 0; k < m.size(); ++k) full[bound.ids[k]] = m[k];
      return component(f, full);
    });
  };
  return assemble(ctx, rest, Axes{}, leaf, f.summed, loc);
}

}  // namespace femgpu::parse
