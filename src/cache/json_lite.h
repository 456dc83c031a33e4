// A small JSON writer and strict reader for flat objects, for femgpu's own cache files.
//
// Takes: an object whose values are finite numbers, strings, arrays of finite numbers,
// or arrays of flat objects (one level: the tuning cache's list of entries) (write);
// text (parse).
// Returns: pretty-printed JSON, one key per line, keys in insertion order, numbers in
// the shortest form that reads back to the same double (write); the object (parse).
// Throws: JsonError naming the byte offset and what was expected, for anything outside
// that subset: nested objects (other than flat ones in an array at the top level),
// arrays of strings or of mixed values, true/false/null, NaN/Infinity,
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

class Object;

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Value {
  enum class Kind { Number, String, NumberArray, ObjectArray };
  Kind kind = Kind::Number;
  double number = 0;
  std::string string;
  std::vector<double> numbers;
  std::vector<Object> objects;  // flat objects only

  static Value of(double x);
  static Value of(std::string s);
  static Value of(std::vector<double> xs);
  static Value of(std::vector<Object> os);
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
