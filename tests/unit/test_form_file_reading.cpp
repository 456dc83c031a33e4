// Reading form text: NUL bytes and invalid UTF-8 are rejected at their line:col (a C
// string would silently drop the text after a NUL), and a file of unbounded size (a
// device, a FIFO, a huge file) is refused before it is read.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "form/form_file.h"
#include "test_form_util.h"

using namespace femgpu;

namespace {

// The bytes of a literal, NULs included.
template <size_t N> std::string bytes(const char (&s)[N]) { return std::string(s, N - 1); }

std::string error_of(const std::string &text)
{
  try {
    parse_form_text(text, "t.ufl", test::signature(2, 1));
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

// A file under the temporary folder, removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &name)
      : path((std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()))).string())
  {
  }
  TempFile(const std::string &name, const std::string &bytes) : TempFile(name)
  {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

std::string file_error_of(const std::string &path)
{
  try {
    read_form_file(path);
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("NUL bytes and invalid UTF-8 in form text are located errors", "[form][parser][errors]")
{
  // In a comment they were ignored before: the text must fail wherever they are.
  CHECK_THAT(error_of(bytes("a = u*v*dx\n# x\0y\n")), Catch::StartsWith("t.ufl:2:4: NUL byte in the form text"));
  CHECK_THAT(error_of(bytes("a = u*v*dx\0 + u*u*v*dx\n")), Catch::StartsWith("t.ufl:1:11: NUL byte"));
  CHECK_THAT(error_of("# caf\xe9\na = u*v*dx\n"), Catch::StartsWith("t.ufl:1:6: invalid UTF-8 (byte 0xe9)"));
  CHECK_THAT(error_of("a = u*v*dx # \xc0\xaf overlong\n"), Catch::StartsWith("t.ufl:1:14: invalid UTF-8 (byte 0xc0)"));
  CHECK_THAT(error_of("a = u*v*dx # \xed\xa0\x80 surrogate\n"), Catch::StartsWith("t.ufl:1:14: invalid UTF-8"));
  CHECK_THAT(error_of("a = u*v*dx # \xe2\x82\n"), Catch::StartsWith("t.ufl:1:14: invalid UTF-8"));
  // Columns count bytes, as the lexer's do: the bad byte after "é" is at column 5.
  CHECK_THAT(error_of("# \xc3\xa9\xff\n"), Catch::StartsWith("t.ufl:1:5: invalid UTF-8 (byte 0xff)"));
  // Valid UTF-8 in comments and strings stays fine.
  CHECK(error_of("# caf\xc3\xa9, \xe2\x88\x87u \xf0\x9f\x99\x82\na = u*v*dx\n") == "(no error)");
  CHECK_THROWS_WITH(parse_expression(bytes("x[0]\0+1"), "e", 2), Catch::StartsWith("e:1:5: NUL byte"));
}

TEST_CASE("read_form_file rejects NUL bytes with their position", "[form][parser][errors]")
{
  TempFile f("femgpu_nul.ufl", bytes("a = u*v*dx\n\0a = inner(grad(u), grad(v))*dx\n"));
  CHECK_THAT(file_error_of(f.path), Catch::StartsWith(f.path + ":2:1: NUL byte in the form text"));
  CHECK_THROWS_WITH(parse_form_file(f.path, test::signature(2, 1)), Catch::StartsWith(f.path + ":2:1: NUL byte"));
  TempFile ok("femgpu_ok.ufl", "a = u*v*dx\n");
  CHECK(read_form_file(ok.path) == "a = u*v*dx\n");
}

TEST_CASE("form files of unbounded size are refused before reading", "[form][parser][errors]")
{
  CHECK_THAT(file_error_of("/dev/zero"), Catch::StartsWith("/dev/zero:1:1: cannot read form file: not a regular file"));
  TempFile fifo("femgpu_fifo.ufl");
  REQUIRE(::mkfifo(fifo.path.c_str(), 0600) == 0);
  CHECK_THAT(file_error_of(fifo.path), Catch::Contains("not a regular file"));  // no writer: must not wait
  TempFile big("femgpu_big.ufl", std::string(kMaxSourceBytes + 1, ' '));
  CHECK_THAT(file_error_of(big.path), Catch::StartsWith(big.path + ":1:1: form file is larger than 1 MiB"));
  TempFile sparse("femgpu_sparse.ufl", "");
  std::filesystem::resize_file(sparse.path, 1ull << 30);  // 1 GiB of holes: reading it would not end
  CHECK_THAT(file_error_of(sparse.path), Catch::Contains("larger than 1 MiB"));
  TempFile limit("femgpu_limit.ufl", "a = u*v*dx\n" + std::string(kMaxSourceBytes - 11, '\n'));
  CHECK(read_form_file(limit.path).size() == kMaxSourceBytes);
  CHECK_THAT(file_error_of("/nonexistent/x.ufl"), Catch::StartsWith("/nonexistent/x.ufl:1:1: cannot read form file: No such file"));
}
