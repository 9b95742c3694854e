// atomic_file.h: the one way everything saves a file (headers, figures, sessions,
// screenshots, corpora, lesson pages).
//
//   a regular file or a new name   written beside it and renamed over it: a reader sees the
//                                  old contents or the new, never half; the old file's mode kept
//   a symbolic link                followed (chains too) and its target replaced the same way;
//                                  the link stays a link; a dangling link creates its target
//   a device, FIFO or socket       written directly (never replaced by a regular file):
//                                  -o /dev/stdout, /dev/null, a pipe
//   a directory                    refused, naming it
#pragma once

#include <string>
#include <string_view>

namespace swz {

// Throws swz::Error with one line naming the path and the reason.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace swz
