// Reading and safely replacing femgpu's small cache files (device probe, tuning), and the
// femgpu version their keys carry.
//
// Takes: a path; for an update, a test that recognises the cache's own text and a
// function from the current text to the new one.
// Returns: the file's text, or why it cannot be read as a cache; for an update "" when
// written, else why not (never throws for I/O).
// Does not: write anything that is not already a femgpu cache of the caller's kind.
// update_cache_file replaces only a missing file, an empty regular file or a regular
// file whose text `is_cache` recognises; it refuses a symbolic link (the link is not
// followed or replaced), anything not a regular file (a device, a FIFO, a folder) and a
// file without write permission bits (made read-only on purpose). It holds an exclusive
// flock on the sibling "<path>.lock" from reading the old text to the rename, so
// processes and MPI ranks sharing the file never lose each other's entries; the new
// text goes to a sibling temporary file renamed over the target (atomic on POSIX file
// systems), so readers, which take no lock, only ever see a complete file. A writer
// killed while holding the lock leaves at most a "<path>.tmp.*" file: the kernel drops
// its lock, and the next writer removes such leftovers (under the lock no live writer
// has one).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace femgpu {

// Any file (kernel sources, helpers): nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::string &path);

// A cache path now: no file, a regular file's text, or why it cannot be read as a cache
// (not a regular file, no permission). Never blocks on a FIFO.
struct CacheFileText {
  bool exists = false;
  std::optional<std::string> text;
  std::string why;  // exists and no text: why
};
CacheFileText read_cache_file(const std::string &path);

// Whether `text` begins (after white space) with {"format": "<format_prefix>..., the
// header femgpu's JSON caches write first; a truncated cache still has it.
bool has_format_header(const std::string &text, const std::string &format_prefix);

using CacheRecogniser = std::function<bool(const std::string &text)>;
using CacheUpdate = std::function<std::string(const std::string &current_text)>;
// Creates missing parent folders. `update` gets "" for a new or empty file.
std::string update_cache_file(const std::string &path, const CacheRecogniser &is_cache, const CacheUpdate &update);

// Writes `text` to a temporary sibling of `path` and renames it over `path` (atomic on
// POSIX file systems; a symbolic link at `path` is replaced, not followed); "" when
// written, else why not. For files whose text is a function of their name alone (kernel
// binaries), where no read-modify-write needs update_cache_file's lock.
std::string replace_file_by_rename(const std::string &path, const std::string &text);

// $XDG_CACHE_HOME/femgpu/<name>, else $HOME/.cache/femgpu/<name>; throws
// std::runtime_error when neither is usable (the one environment read of the caches).
std::string default_cache_file(const std::string &name);

// PROJECT_VERSION from CMake: part of every cache's key (device probe, tuning), so a
// new femgpu never trusts an older one's entries.
const char *femgpu_version();

}  // namespace femgpu
