// json_lite writes flat objects that read back exactly, and its reader refuses anything
// outside that subset instead of guessing.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "cache/json_lite.h"

using namespace femgpu::json;

TEST_CASE("json_lite: numbers, strings and number arrays read back exactly", "[json]")
{
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-300, 300);
  std::vector<double> xs = {0.0, 1.0, -2.5, 0.1, 1.0 / 3.0, 4.8e12, 1e-300, std::numeric_limits<double>::max(),
                            std::numeric_limits<double>::denorm_min(), 13000};
  for (int i = 0; i < 200; ++i) xs.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  Object o;
  for (size_t i = 0; i < xs.size(); ++i) o.set("x" + std::to_string(i), Value::of(xs[i]));
  o.set("name", Value::of(std::string("NVIDIA H200 \"SXM\"\t\\ caf\xc3\xa9 \x01")));
  o.set("curve", Value::of(xs));
  o.set("empty", Value::of(std::vector<double>{}));
  const Object back = parse(write(o));
  REQUIRE(back.entries().size() == o.entries().size());
  for (size_t i = 0; i < o.entries().size(); ++i) {
    const auto &[key, v] = o.entries()[i];
    const auto &[key_back, w] = back.entries()[i];
    CHECK(key == key_back);
    REQUIRE(v.kind == w.kind);
    CHECK(v.number == w.number);
    CHECK(v.string == w.string);
    CHECK(v.numbers == w.numbers);
  }
}

TEST_CASE("json_lite: numbers are written in their shortest exact form", "[json]")
{
  CHECK(format_number(13000) == "13000");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(4.8e12) == "4800000000000");
  CHECK(format_number(4.8e15) == "4.8e+15");
  CHECK(format_number(-2.5) == "-2.5");
  CHECK_THROWS_AS(format_number(std::nan("")), JsonError);
  CHECK_THROWS_AS(format_number(INFINITY), JsonError);
  Object o;
  o.set("x", Value::of(std::nan("")));
  CHECK_THROWS_AS(write(o), JsonError);
}

TEST_CASE("json_lite: the reader accepts standard spellings", "[json]")
{
  const Object o = parse(" {\"a\" : -0.5e-3 ,\"b\":\"\\u00e9\\/\\n\", \"c\":[ 1 , 2E2 ] }\n");
  CHECK(o.find("a")->number == -0.5e-3);
  CHECK(o.find("b")->string == "\xc3\xa9/\n");
  CHECK(o.find("c")->numbers == std::vector<double>{1, 200});
  CHECK(parse("{}").entries().empty());
  CHECK(o.find("missing") == nullptr);
}

TEST_CASE("json_lite: the reader rejects malformed or unsupported text", "[json]")
{
  const char *bad[] = {
      "",                         // empty
      "{\"a\": 1",                // truncated
      "{\"a\": 1,}",              // trailing comma
      "{\"a\" 1}",                // missing colon
      "{a: 1}",                   // unquoted key
      "{\"a\": NaN}",             // not JSON
      "{\"a\": Infinity}",        //
      "{\"a\": -Infinity}",       //
      "{\"a\": 1e999}",           // overflows a double
      "{\"a\": 01}",              // leading zero
      "{\"a\": 1.}",              // no fraction digits
      "{\"a\": .5}",              //
      "{\"a\": +1}",              //
      "{\"a\": 0x10}",            //
      "{\"a\": true}",            // booleans and null are outside the subset
      "{\"a\": null}",            //
      "{\"a\": {\"b\": 1}}",      // nested object
      "{\"a\": [1, \"x\"]}",      // mixed array
      "{\"a\": [[1]]}",           // nested array
      "{\"a\": 1, \"a\": 2}",     // duplicate key
      "{\"a\": \"x\\q\"}",        // bad escape
      "{\"a\": \"\\ud800\"}",     // lone surrogate
      "{\"a\": \"x\ny\"}",        // raw control character
      "{\"a\": \"open}",          // unterminated string
      "{\"a\": 1} x",             // trailing text
      "[1, 2]",                   // not an object
  };
  for (const char *text : bad) {
    INFO(text);
    CHECK_THROWS_AS(parse(text), JsonError);
  }
}

TEST_CASE("json_lite: errors name the byte offset", "[json]")
{
  try {
    parse("{\"a\": 1, \"b\": NaN}");
    FAIL("expected a JsonError");
  } catch (const JsonError &e) {
    CHECK(std::string(e.what()).find("at byte 14") != std::string::npos);
  }
}

TEST_CASE("json_lite: arrays of flat objects read back, deeper nesting does not", "[json]")
{
  Object a, b, top;
  a.set("name", Value::of(std::string("x"))).set("n", Value::of(2.5));
  b.set("list", Value::of(std::vector<double>{1, 2}));
  top.set("format", Value::of(std::string("f/1"))).set("entries", Value::of(std::vector<Object>{a, b}));
  const Object back = parse(write(top));
  const Value *entries = back.find("entries");
  REQUIRE(entries);
  REQUIRE(entries->kind == Value::Kind::ObjectArray);
  REQUIRE(entries->objects.size() == 2);
  CHECK(entries->objects[0].find("name")->string == "x");
  CHECK(entries->objects[0].find("n")->number == 2.5);
  CHECK(entries->objects[1].find("list")->numbers == std::vector<double>{1, 2});
  CHECK(write(back) == write(top));
  const char *bad[] = {
      "{\"a\": [{\"b\": [{\"c\": 1}]}]}",  // objects inside an object in an array
      "{\"a\": [{\"b\": 1}, 2]}",          // mixed
      "{\"a\": [{\"b\": 1},]}",            // trailing comma
      "{\"a\": [{\"b\": 1}, {\"b\": 1, \"b\": 2}]}",  // duplicate key inside
  };
  for (const char *text : bad) {
    INFO(text);
    CHECK_THROWS_AS(parse(text), JsonError);
  }
}
