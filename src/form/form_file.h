// Reading form text: the one place that turns a path into form text, and the byte
// check every form text passes (files, MatFEMGPUSetForm, the C++ API, expressions).
//
// Takes: a path, or text already in memory.
// Returns: the file's bytes, unchanged, once they are known to be form text.
// Errors: read_form_file throws FormError "<path>:<line>:<col>: <what>"; check_source_bytes
// throws ParseFailure (the parser adds the source name). Rejected: a path that is not a
// regular file (checked on the open descriptor, before reading, so /dev/zero or a FIFO
// neither hangs nor fills memory), a file over kMaxSourceBytes (never more than that
// plus one byte is read), NUL bytes and invalid UTF-8, each at its line:col.
// Does not: tokenize or parse.
#pragma once

#include <string>

namespace femgpu {

// NUL bytes and invalid UTF-8 are rejected where they are: a C string would drop the
// text after a NUL, so a form with one could silently become another form.
void check_source_bytes(const std::string &text);

std::string read_form_file(const std::string &path);

}  // namespace femgpu
