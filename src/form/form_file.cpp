// read_form_file: open, check what was opened, read at most the limit plus one byte,
// check the bytes. check_source_bytes: UTF-8 validation with positions.
#include "form/form_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "form/expr.h"
#include "form/lexer.h"
#include "form/quoted_text.h"

namespace femgpu {

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 if there is none.
size_t utf8_length(const std::string &s, size_t i)
{
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xbf) { return at(k) >= lo && at(k) <= hi; };
  unsigned c = at(0);
  if (c >= 0x01 && c <= 0x7f) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    bool second = c == 0xe0 ? cont(1, 0xa0) : c == 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return second && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    bool second = c == 0xf0 ? cont(1, 0x90) : c == 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return second && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

// A long path is shown by its two ends, so that the reason after it is not cut off.
[[noreturn]] void file_error(const std::string &path, Loc loc, const std::string &what)
{
  throw FormError(excerpt(path) + ":" + loc_string(loc) + ": " + what);
}

// Closes the descriptor on every path out of read_form_file.
struct Descriptor {
  int fd;
  ~Descriptor()
  {
    if (fd >= 0) ::close(fd);
  }
};

std::string read_at_most(const std::string &path, int fd, size_t limit)
{
  std::string text(limit + 1, '\0');
  size_t n = 0;
  while (n < text.size()) {
    ssize_t r = ::read(fd, &text[n], text.size() - n);
    if (r == 0) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) file_error(path, {1, 1}, std::string("cannot read form file: ") + std::strerror(errno));
    n += static_cast<size_t>(r);
  }
  text.resize(n);
  return text;
}

}  // namespace

void check_source_bytes(const std::string &text)
{
  Loc loc;
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_length(text, i);
    if (n == 0 && text[i] == '\0')
      fail_at(loc, "NUL byte in the form text (form text is UTF-8 without NUL bytes; the text after it would be lost)");
    if (n == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid UTF-8 (byte 0x%02x)", static_cast<unsigned char>(text[i]));
      fail_at(loc, std::string(buf) + "; form text must be UTF-8");
    }
    if (text[i] == '\n') loc = {loc.line + 1, 1};
    else loc.col += static_cast<int>(n);  // columns count bytes, as the lexer's do
    i += n;
  }
}

std::string read_form_file(const std::string &path)
{
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then rejects it.
  Descriptor d{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (d.fd < 0) file_error(path, {1, 1}, std::string("cannot read form file: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(d.fd, &st) != 0) file_error(path, {1, 1}, std::string("cannot read form file: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    file_error(path, {1, 1}, "cannot read form file: not a regular file (a directory, device or FIFO has no fixed size)");
  const std::string too_big = "form file is larger than 1 MiB (" + std::to_string(kMaxSourceBytes) + " bytes)";
  if (static_cast<unsigned long long>(st.st_size) > kMaxSourceBytes) file_error(path, {1, 1}, too_big);
  std::string text = read_at_most(path, d.fd, kMaxSourceBytes);
  if (text.size() > kMaxSourceBytes) file_error(path, {1, 1}, too_big);  // it grew after fstat
  try {
    check_source_bytes(text);
  } catch (const ParseFailure &f) {
    file_error(path, f.loc, f.what());
  }
  return text;
}

}  // namespace femgpu
