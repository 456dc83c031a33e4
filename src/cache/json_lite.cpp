// Flat-object JSON: a hand-written writer and a recursive-descent reader for exactly
// the subset json_lite.h names, rejecting everything else.
#include "cache/json_lite.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace femgpu::json {

Value Value::of(double x)
{
  Value v;
  v.kind = Kind::Number;
  v.number = x;
  return v;
}

Value Value::of(std::string s)
{
  Value v;
  v.kind = Kind::String;
  v.string = std::move(s);
  return v;
}

Value Value::of(std::vector<double> xs)
{
  Value v;
  v.kind = Kind::NumberArray;
  v.numbers = std::move(xs);
  return v;
}

Value Value::of(std::vector<Object> os)
{
  Value v;
  v.kind = Kind::ObjectArray;
  v.objects = std::move(os);
  return v;
}

Object &Object::set(const std::string &key, Value v)
{
  for (auto &[k, old] : entries_)
    if (k == key) {
      old = std::move(v);
      return *this;
    }
  entries_.emplace_back(key, std::move(v));
  return *this;
}

const Value *Object::find(const std::string &key) const
{
  for (const auto &[k, v] : entries_)
    if (k == key) return &v;
  return nullptr;
}

std::string format_number(double x)
{
  if (!std::isfinite(x)) throw JsonError("json: cannot write the non-finite number " + std::to_string(x));
  char buf[40];
  if (x == std::floor(x) && std::fabs(x) < 1e15) {  // integers as integers: 13000, not 1.3e+04
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    double back = 0;
    std::from_chars(buf, buf + std::char_traits<char>::length(buf), back);
    if (back == x) break;
  }
  return buf;
}

namespace {

std::string quote(const std::string &s)
{
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string write_members(const Object &o, const std::string &indent);

std::string write_value(const Value &v, const std::string &indent)
{
  switch (v.kind) {
    case Value::Kind::Number: return format_number(v.number);
    case Value::Kind::String: return quote(v.string);
    case Value::Kind::NumberArray: break;
    case Value::Kind::ObjectArray: {
      if (v.objects.empty()) return "[]";
      std::string out = "[";
      for (size_t i = 0; i < v.objects.size(); ++i) {
        for (const auto &[key, member] : v.objects[i].entries())
          if (member.kind == Value::Kind::ObjectArray) throw JsonError("json: cannot write \"" + key + "\": nested object arrays");
        out += (i ? ",\n" : "\n") + indent + "  " + write_members(v.objects[i], indent + "  ");
      }
      return out + "\n" + indent + "]";
    }
  }
  std::string out = "[";
  for (size_t i = 0; i < v.numbers.size(); ++i) out += (i ? ", " : "") + format_number(v.numbers[i]);
  return out + "]";
}

class Reader {
 public:
  explicit Reader(const std::string &text) : s_(text) {}

  Object document()
  {
    Object o = object(true);
    skip_space();
    if (pos_ != s_.size()) fail("the end of the text");
    return o;
  }

 private:
  [[noreturn]] void fail(const std::string &expected) const
  {
    const std::string found = pos_ < s_.size() ? "'" + std::string(1, s_[pos_]) + "'" : "the end";
    throw JsonError("json: at byte " + std::to_string(pos_) + " expected " + expected + ", found " + found);
  }

  void skip_space()
  {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }

  bool consume(char c)
  {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c)
  {
    if (!consume(c)) fail(std::string("'") + c + "'");
  }

  // The top level may hold arrays of objects; those objects must be flat.
  Object object(bool top)
  {
    Object o;
    expect('{');
    if (!consume('}')) {
      do {
        std::string key = string();
        if (o.find(key)) fail("a new key (\"" + key + "\" appears twice)");
        expect(':');
        o.set(key, value(top));
      } while (consume(','));
      expect('}');
    }
    return o;
  }

  Value value(bool objects_allowed)
  {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '"') return Value::of(string());
    if (!consume('[')) return Value::of(number());
    skip_space();
    if (objects_allowed && pos_ < s_.size() && s_[pos_] == '{') {
      std::vector<Object> os;
      do os.push_back(object(false));
      while (consume(','));
      expect(']');
      return Value::of(std::move(os));
    }
    std::vector<double> xs;
    if (!consume(']')) {
      do xs.push_back(number());
      while (consume(','));
      expect(']');
    }
    return Value::of(std::move(xs));
  }

  // JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  double number()
  {
    skip_space();
    const size_t start = pos_;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    const size_t int_start = pos_;
    if (digits() == 0) fail("a number (or a string or an array of numbers)");
    if (s_[int_start] == '0' && pos_ - int_start > 1) fail("no leading zero");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) fail("a digit after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("a digit in the exponent");
    }
    double x = 0;
    const auto r = std::from_chars(s_.data() + start, s_.data() + pos_, x);
    if (r.ec != std::errc() || !std::isfinite(x)) {
      pos_ = start;
      fail("a number that fits a double");
    }
    return x;
  }

  unsigned hex4()
  {
    unsigned u = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      if (pos_ >= s_.size()) fail("four hex digits");
      const char c = s_[pos_];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) fail("four hex digits");
      u = u * 16 + static_cast<unsigned>(d);
    }
    return u;
  }

  void append_utf8(std::string &out, unsigned u)
  {
    if (u >= 0xD800 && u <= 0xDFFF) fail("no UTF-16 surrogate escapes");
    if (u < 0x80) {
      out += static_cast<char>(u);
    } else if (u < 0x800) {
      out += static_cast<char>(0xC0 | (u >> 6));
      out += static_cast<char>(0x80 | (u & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (u >> 12));
      out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (u & 0x3F));
    }
  }

  std::string string()
  {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("'\"' closing the string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        fail("no control character in a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("an escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, hex4()); break;
        default: --pos_; fail("a valid escape");
      }
    }
  }

  const std::string &s_;
  size_t pos_ = 0;
};

}  // namespace

namespace {

std::string write_members(const Object &o, const std::string &indent)
{
  std::string out = "{";
  const auto &entries = o.entries();
  for (size_t i = 0; i < entries.size(); ++i)
    out += (i ? ",\n" : "\n") + indent + "  " + quote(entries[i].first) + ": " + write_value(entries[i].second, indent + "  ");
  return out + (entries.empty() ? "}" : "\n" + indent + "}");
}

}  // namespace

std::string write(const Object &o) { return write_members(o, "") + "\n"; }

Object parse(const std::string &text) { return Reader(text).document(); }

}  // namespace femgpu::json
