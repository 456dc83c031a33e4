// A small JSON writer and strict reader for flat objects, for femgpu's own cache files.
//
// Takes: a flat object whose values are finite numbers, strings or arrays of finite
// numbers (write); text (parse).
// Returns: pretty-printed JSON, one key per line, keys in insertion order, numbers in
// the shortest form that reads back to the same double (write); the object (parse).
// Throws: JsonError naming the byte offset and what was expected, for anything outside
// that subset: nested objects, arrays of non-numbers, true/false/null, NaN/Infinity,
// numbers that overflow a double, duplicate keys, bad escapes, control characters in
// strings, trailing text. write() throws JsonError for a non-finite number.
// Does not: read general JSON, validate UTF-8 (bytes >= 0x80 pass through), or know
// what any key means (device_cache.h does).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace femgpu::json {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Value {
  enum class Kind { Number, String, NumberArray };
  Kind kind = Kind::Number;
  double number = 0;
  std::string string;
  std::vector<double> numbers;

  static Value of(double x);
  static Value of(std::string s);
  static Value of(std::vector<double> xs);
};

// Keys are unique and keep their insertion order.
class Object {
 public:
  Object &set(const std::string &key, Value v);  // replaces an existing key in place
  const Value *find(const std::string &key) const;  // nullptr when absent
  const std::vector<std::pair<std::string, Value>> &entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, Value>> entries_;
};

std::string write(const Object &o);
Object parse(const std::string &text);

// The shortest decimal text that parses back to exactly x (x finite).
std::string format_number(double x);

}  // namespace femgpu::json
