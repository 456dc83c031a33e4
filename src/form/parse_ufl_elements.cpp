// UFL's element words in form files: the cells, FiniteElement / VectorElement /
// MixedElement, Mesh and FunctionSpace, and the functions made on an element
// (TrialFunction(V), TestFunction(V), TrialFunctions(W), split, Coefficient(V),
// Constant(cell)), plus Index, indices and Dx.
//
// An element is femgpu's claim check: the field comes from the DM (the signature), so a
// trial or test function's declared cell, degree and value shape must be the
// signature's (an error here names both); a coefficient's cell too. What lowering cannot
// take yet (mixed elements, coefficients in their own element) is recorded in the form
// and refused there (declared_elements.h).
#include <set>

#include "form/declared_elements.h"
#include "form/parse_builtins.h"
#include "form/parse_indices.h"

namespace femgpu::parse {

namespace {

std::string at(Loc l) { return loc_string(l); }

CellType cell_arg(const Value &v, Loc loc, const std::string &fn)
{
  if (v.kind == Kind::Cell) return v.cell;
  if (v.kind == Kind::String) {
    try {
      return cell_from_name(v.s);
    } catch (const FormError &e) {
      fail_at(loc, e.what());
    }
  }
  fail_at(loc, fn + "() needs a cell (triangle or tetrahedron), got " + type_name(v));
}

std::string family_arg(const Value &v, Loc loc, const std::string &fn)
{
  static const std::set<std::string> lagrange = {"Lagrange", "CG", "P"};
  static const std::set<std::string> discontinuous = {"DG", "Discontinuous Lagrange", "DP", "DQ"};
  if (v.kind != Kind::String) fail_at(loc, fn + "() needs the family name first, e.g. \"Lagrange\", got " + type_name(v));
  if (lagrange.count(v.s) || discontinuous.count(v.s)) return v.s;
  fail_at(loc, "unknown element family '" + v.s + "' (femgpu supports continuous Lagrange: 'Lagrange', 'CG' or 'P', and 'DG' of degree 0)");
}

const DeclaredElement &element_arg(const Value &v, Loc loc, const std::string &fn)
{
  if (v.kind != Kind::Element)
    fail_at(loc, fn + "() needs an element (FiniteElement, VectorElement, MixedElement or a FunctionSpace), got " + type_name(v));
  return *v.element;
}

// A cell the file names must be the DM's: a form on tetrahedra cannot be read for triangles.
void check_cell(const Context &ctx, CellType cell, Loc loc, const std::string &what)
{
  const FormSignature &sig = ctx.builder->signature();
  if (cell != sig.cell)
    fail_at(loc, what + " is on " + cell_plural(cell) + ", but the form is read for the field " +
                     describe_element(sig.element, sig.cell) + " (the DM's)");
}

Value finite_element(const std::string &fn, const CallArgs &args, Loc loc)
{
  const bool vector = fn == "VectorElement";
  Keywords kw = check_call(fn, args, 3, vector ? 4 : 3, vector ? std::vector<std::string>{"dim"} : std::vector<std::string>{}, loc);
  DeclaredElement e;
  const std::string family = family_arg(args.pos[0], args.pos_loc[0], fn);
  e.cell = cell_arg(args.pos[1], args.pos_loc[1], fn);
  // DG is taken at degree 0 only (piecewise constants, for coefficients); femgpu's
  // Lagrange elements are continuous, so DG of higher degree has no element here.
  const bool dg = !(family == "Lagrange" || family == "CG" || family == "P");
  e.degree = small_int(args.pos[2], args.pos_loc[2], fn + "() degree", dg ? 0 : 1, 8);
  if (dg && e.degree > 0)
    fail_at(args.pos_loc[2], "element family '" + family + "' of degree " + std::to_string(e.degree) +
                                 " is not supported: femgpu takes DG of degree 0 (piecewise constants) and continuous Lagrange");
  e.vector = vector;
  std::string dim_text;
  if (vector) {
    if (args.pos.size() == 4 && kw.get("dim")) fail_at(kw.loc("dim"), "VectorElement() got dim twice");
    const Value *dim = args.pos.size() == 4 ? &args.pos[3] : kw.get("dim");
    Loc dloc = args.pos.size() == 4 ? args.pos_loc[3] : dim ? kw.loc("dim") : loc;
    e.components = dim ? small_int(*dim, dloc, "VectorElement() dim", 2, 9) : cell_dim(e.cell);
    if (dim) dim_text = ", dim=" + std::to_string(e.components);
  }
  e.text = fn + "(\"" + family + "\", " + cell_name(e.cell) + ", " + std::to_string(e.degree) + dim_text + ")";
  e.line = loc.line;
  e.col = loc.col;
  return Value::of_element(e);
}

Value mixed_of(const std::vector<DeclaredElement> &parts, Loc loc)
{
  DeclaredElement e;
  e.parts = parts;
  e.cell = parts[0].cell;
  e.degree = parts[0].degree;
  e.text = "MixedElement(";
  for (size_t k = 0; k < parts.size(); ++k) {
    if (parts[k].cell != e.cell)
      fail_at(loc, "MixedElement(): its elements are on different cells (" + std::string(cell_name(e.cell)) + " and " +
                       cell_name(parts[k].cell) + ")");
    e.text += (k ? ", " : "") + parts[k].text;
  }
  e.text += ")";
  e.components = e.value_shape()[0];
  e.line = loc.line;
  e.col = loc.col;
  return Value::of_element(e);
}

Value mixed_element(const CallArgs &args, Loc loc)
{
  check_call("MixedElement", args, 1, 16, {}, loc);
  const bool listed = args.pos.size() == 1 && args.pos[0].kind == Kind::List;
  const std::vector<Value> &items = listed ? args.pos[0].items : args.pos;
  if (items.size() < 2) fail_at(loc, "MixedElement() needs at least two elements");
  std::vector<DeclaredElement> parts;
  for (size_t k = 0; k < items.size(); ++k)
    parts.push_back(element_arg(items[k], listed ? args.pos_loc[0] : args.pos_loc[k], "MixedElement"));
  return mixed_of(parts, loc);
}

// Mesh(VectorElement("Lagrange", cell, k)): the cell, with coordinates of degree k.
Value mesh(Context &ctx, const CallArgs &args, Loc loc)
{
  check_call("Mesh", args, 1, 1, {}, loc);
  const DeclaredElement &e = element_arg(args.pos[0], args.pos_loc[0], "Mesh");
  if (e.is_mixed() || !e.vector || e.components != cell_dim(e.cell))
    fail_at(args.pos_loc[0], "Mesh() needs the coordinate element, a VectorElement with d components, got " + e.text);
  check_cell(ctx, e.cell, args.pos_loc[0], "the mesh's " + e.text);
  const int want = ctx.builder->signature().coordinate_degree;
  if (e.degree != want)
    fail_at(args.pos_loc[0], "the mesh's coordinate element " + e.text + " has degree " + std::to_string(e.degree) +
                                 ", but the form is read for coordinates of degree " + std::to_string(want) + " (the DM's)");
  return Value::of_cell(e.cell, e.degree);
}

Value function_space(const CallArgs &args, Loc loc)
{
  check_call("FunctionSpace", args, 2, 2, {}, loc);
  if (args.pos[0].kind != Kind::Cell || args.pos[0].i == 0)
    fail_at(args.pos_loc[0], "FunctionSpace() needs a Mesh first, got " + type_name(args.pos[0]));
  const DeclaredElement &e = element_arg(args.pos[1], args.pos_loc[1], "FunctionSpace");
  if (e.cell != args.pos[0].cell)
    fail_at(args.pos_loc[1], "FunctionSpace(): the element " + e.text + " is on another cell than the mesh");
  return args.pos[1];
}

// The name a Coefficient(V) or Constant(cell) takes: the variable it is assigned to.
std::string target_name(const Context &ctx, const std::string &call, Loc loc)
{
  if (ctx.call_target.empty() || ctx.call_target_loc.line != loc.line || ctx.call_target_loc.col != loc.col)
    fail_at(loc, call + " must be assigned to a name on its own line, e.g. 'f = " + call +
                     "': femgpu binds coefficients and constants by that name");
  if (!is_identifier(ctx.call_target))
    fail_at(loc, "the name '" + ctx.call_target + "' of " + call + " must be an identifier of at most 64 characters");
  return ctx.call_target;
}

// The parts of a function on a mixed element, as UFL's split: scalars and vectors.
Value split_parts(Context &ctx, const Expr &f, const DeclaredElement &e, Loc loc)
{
  std::vector<Value> parts;
  int offset = 0;
  for (const DeclaredElement &p : e.parts) {
    Shape s = p.value_shape();
    Expr part;
    if (s.empty()) {
      part = ctx.build(loc, [&] { return indexed(f, {offset}); });
    } else {
      std::vector<Expr> comps;
      for (int c = 0; c < s[0]; ++c) comps.push_back(indexed(f, {offset + c}));
      part = ctx.build(loc, [&] { return as_vector(comps); });
    }
    offset += s.empty() ? 1 : s[0];
    parts.push_back(Value::of_expr(part));
  }
  return Value::list(parts);
}

Value argument_on(Context &ctx, const std::string &fn, const CallArgs &args, Loc loc)
{
  check_call(fn, args, 1, 1, {}, loc);
  const bool trial = fn.rfind("Trial", 0) == 0, several = fn.back() == 's';
  const DeclaredElement &e = element_arg(args.pos[0], args.pos_loc[0], fn);
  const std::string role = trial ? "trial function" : "test function";
  if (several && !e.is_mixed())
    fail_at(args.pos_loc[0], fn + "() needs a mixed element (MixedElement or e1 * e2), got " + e.text + "; use " + fn.substr(0, fn.size() - 1) + "()");
  check_cell(ctx, e.cell, args.pos_loc[0], "the " + role + "'s element " + e.text);
  if (!e.is_mixed()) {
    std::string why = element_mismatch(e, ctx.builder->signature());
    if (!why.empty()) fail_at(Loc{e.line, e.col}, "the " + role + "'s element (" + fn + " at " + at(loc) + ") does not match: " + why);
  }
  const int number = trial ? 1 : 0;
  Expr a = e.is_mixed() ? argument(number, e.value_shape(), trial ? "u" : "v")
                        : (trial ? ctx.builder->trial_function() : ctx.builder->test_function());
  a = ctx.checked(a, loc);
  ctx.builder->declare({trial ? FunctionDeclaration::Role::Trial : FunctionDeclaration::Role::Test, -1, e, loc.line, loc.col});
  if (e.is_mixed()) ctx.mixed_functions[a.get()] = args.pos[0].element;
  return several ? split_parts(ctx, a, e, loc) : Value::of_expr(a);
}

Value split_call(Context &ctx, const CallArgs &args, Loc loc)
{
  check_call("split", args, 1, 1, {}, loc);
  const Value &f = args.pos[0];
  auto it = f.kind == Kind::Expr ? ctx.mixed_functions.find(f.e.get()) : ctx.mixed_functions.end();
  if (it == ctx.mixed_functions.end())
    fail_at(args.pos_loc[0], "split() needs a function on a mixed element (TrialFunction(W) or Coefficient(W)), got " + type_name(f));
  return split_parts(ctx, f.e, *it->second, loc);
}

Value coefficient_on(Context &ctx, const CallArgs &args, Loc loc)
{
  check_call("Coefficient", args, 1, 1, {}, loc);
  const DeclaredElement &e = element_arg(args.pos[0], args.pos_loc[0], "Coefficient");
  const std::string name = target_name(ctx, "Coefficient(" + e.text + ")", loc);
  check_cell(ctx, e.cell, args.pos_loc[0], "coefficient '" + name + "''s element " + e.text);
  // A mixed coefficient is held as its flattened components; lowering refuses it.
  const Element element = e.is_mixed() ? Element{e.degree, e.components} : e.element();
  Expr c = ctx.build(loc, [&] { return ctx.builder->coefficient(name, element); });
  ctx.builder->declare({FunctionDeclaration::Role::Coefficient, c->index, e, loc.line, loc.col});
  if (e.is_mixed()) ctx.mixed_functions[c.get()] = args.pos[0].element;
  return Value::of_expr(c);
}

Shape constant_shape(const Context &ctx, const std::string &fn, const CallArgs &args, const Keywords &kw)
{
  if (fn == "TensorConstant") return {ctx.dim, ctx.dim};
  if (fn == "VectorConstant") {
    const Value *dim = args.pos.size() == 2 ? &args.pos[1] : kw.get("dim");
    return {dim ? small_int(*dim, args.pos.size() == 2 ? args.pos_loc[1] : kw.loc("dim"), "VectorConstant() dim", 1, 9) : ctx.dim};
  }
  const Value *shape = args.pos.size() == 2 ? &args.pos[1] : kw.get("shape");
  if (!shape) return {};
  Loc sloc = args.pos.size() == 2 ? args.pos_loc[1] : kw.loc("shape");
  if (shape->kind != Kind::List || shape->items.size() > 2)
    fail_at(sloc, "Constant() shape must be a tuple of at most two lengths, e.g. (2,) or (2, 2), got " + type_name(*shape));
  Shape s;
  for (const Value &n : shape->items) s.push_back(small_int(n, sloc, "a Constant() length", 1, 9));
  return s;
}

// Constant(cell) is one named scalar; Constant(cell, (n,)) the vector of scalars
// name_0 ... name_{n-1} (name_i_j for a matrix), each set at run time by its name.
Value constant_on(Context &ctx, const std::string &fn, const CallArgs &args, Loc loc)
{
  const std::vector<std::string> keywords = fn == "Constant" ? std::vector<std::string>{"shape"}
                                            : fn == "VectorConstant" ? std::vector<std::string>{"dim"}
                                                                     : std::vector<std::string>{};
  Keywords kw = check_call(fn, args, 1, fn == "TensorConstant" ? 1 : 2, keywords, loc);
  check_cell(ctx, cell_arg(args.pos[0], args.pos_loc[0], fn), args.pos_loc[0], fn + "()");
  const Shape s = constant_shape(ctx, fn, args, kw);
  const std::string name = target_name(ctx, fn + "(cell)", loc);
  auto scalar = [&](const std::string &n) { return ctx.build(loc, [&] { return ctx.builder->constant(n, 0.0); }); };
  if (s.empty()) return Value::of_expr(scalar(name));
  std::vector<Expr> rows;
  for (int a = 0; a < s[0]; ++a) {
    const std::string row = name + "_" + std::to_string(a);
    if (s.size() == 1) {
      rows.push_back(scalar(row));
      continue;
    }
    std::vector<Expr> entries;
    for (int b = 0; b < s[1]; ++b) entries.push_back(scalar(row + "_" + std::to_string(b)));
    rows.push_back(ctx.build(loc, [&] { return as_vector(entries); }));
  }
  return Value::of_expr(ctx.build(loc, [&] { return as_vector(rows); }));
}

Value index_call(Context &ctx, const std::string &fn, const CallArgs &args, Loc loc)
{
  if (fn == "Index") {
    check_call(fn, args, 0, 0, {}, loc);
    return ctx.new_index();
  }
  check_call(fn, args, 1, 1, {}, loc);
  const int n = small_int(args.pos[0], args.pos_loc[0], "indices() count", 1, 16);
  std::vector<Value> out;
  for (int k = 0; k < n; ++k) out.push_back(ctx.new_index());
  return Value::list(out);
}

Value dx_call(Context &ctx, const CallArgs &args, Loc loc)
{
  if (args.pos.empty()) fail_at(loc, "Dx() needs an expression and at least one index, e.g. Dx(u, 0)");
  CallArgs rest = args;
  rest.pos.erase(rest.pos.begin());
  rest.pos_loc.erase(rest.pos_loc.begin());
  return partial_derivative(ctx, args.pos[0], rest, loc);
}

}  // namespace

void seed_ufl_names(Context &ctx)
{
  ctx.env["triangle"] = Value::of_cell(CellType::Triangle);
  ctx.env["tetrahedron"] = Value::of_cell(CellType::Tetrahedron);
  // `from ufl import *` brings these indices.
  for (const char *n : {"i", "j", "k", "l", "p", "q", "r", "s"}) ctx.env[n] = ctx.new_index(n);
}

bool is_ufl_call(const std::string &name, const CallArgs &args)
{
  if (name == "TrialFunction" || name == "TestFunction") return !args.pos.empty() || !args.kw.empty();
  if (name == "Coefficient") return !args.pos.empty() && args.pos[0].kind == Kind::Element;
  if (name == "Constant") return !args.pos.empty() && args.pos[0].kind == Kind::Cell;
  return name != "derivative" && name != "Coefficient" && name != "Constant";
}

Value call_ufl_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  if (name == "FiniteElement" || name == "VectorElement") return finite_element(name, args, loc);
  if (name == "MixedElement") return mixed_element(args, loc);
  if (name == "Mesh") return mesh(ctx, args, loc);
  if (name == "FunctionSpace") return function_space(args, loc);
  if (name.find("Function") != std::string::npos) return argument_on(ctx, name, args, loc);
  if (name == "split") return split_call(ctx, args, loc);
  if (name == "Coefficient") return coefficient_on(ctx, args, loc);
  if (name.find("Constant") != std::string::npos) return constant_on(ctx, name, args, loc);
  if (name == "SpatialCoordinate") {
    check_call(name, args, 1, 1, {}, loc);
    check_cell(ctx, cell_arg(args.pos[0], args.pos_loc[0], name), args.pos_loc[0], "SpatialCoordinate()");
    return Value::of_expr(ctx.checked(ctx.builder->x(), loc));
  }
  if (name == "FacetNormal") {
    check_call(name, args, 1, 1, {}, loc);
    check_cell(ctx, cell_arg(args.pos[0], args.pos_loc[0], name), args.pos_loc[0], "FacetNormal()");
    return Value::of_expr(ctx.checked(ctx.builder->facet_normal(), loc));
  }
  if (name == "Dx") return dx_call(ctx, args, loc);
  return index_call(ctx, name, args, loc);
}

Value mixed_product(const Value &a, const Value &b, Loc loc) { return mixed_of({*a.element, *b.element}, loc); }

}  // namespace femgpu::parse
