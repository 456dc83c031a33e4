// Reading and atomically replacing femgpu's small cache files (device probe, tuning).
//
// Takes: a path, and for writing the complete new text.
// Returns: the file's text (read_text_file: nullopt when it does not exist or cannot
// be read); "" when the write succeeded, else why it did not (never throws for I/O).
// Does not: lock. A write goes to a sibling temporary file unique to this process and
// call, which is then renamed over the target: rename() is atomic on POSIX file
// systems, so readers and concurrent writers (several MPI ranks) only ever see a
// complete file, one writer's. Concurrent read-modify-write cycles can lose the other
// writer's update (the last rename wins); they cannot corrupt the file.
#pragma once

#include <optional>
#include <string>

namespace femgpu {

std::optional<std::string> read_text_file(const std::string &path);

// Creates missing parent folders.
std::string write_file_atomically(const std::string &path, const std::string &text);

// $XDG_CACHE_HOME/femgpu/<name>, else $HOME/.cache/femgpu/<name>; throws
// std::runtime_error when neither is usable (the one environment read of the caches).
std::string default_cache_file(const std::string &name);

}  // namespace femgpu
