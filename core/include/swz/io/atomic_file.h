// atomic_file.h: the one way everything saves a file (headers, figures, sessions,
// screenshots, corpora, lesson pages).
//
//   a regular file or a new name   written beside it and renamed over it: a reader sees the
//                                  old contents or the new, never half; the old file's mode kept,
//                                  a new file's mode as any program's (0666 less the umask)
//   a symbolic link                followed (chains too) and its target replaced the same way;
//                                  the link stays a link; a dangling link creates its target
//   a device, FIFO or socket       written directly (never replaced by a regular file):
//                                  -o /dev/stdout, /dev/null, a pipe
//   a directory                    refused, naming it
#pragma once

#include <string>
#include <string_view>

namespace swz {

// The permissions a new file asks for, before the process's umask takes its bits away.
inline constexpr unsigned kOrdinaryFileMode = 0666;  // what a shell's `>` or an editor creates
inline constexpr unsigned kPrivateFileMode = 0600;   // the owner alone (quiz records: students' names)

// Throws swz::Error with one line naming the path and the reason. A file this call creates gets
// `new_file_mode` less the umask; a file it replaces keeps its own mode.
void write_file_atomically(const std::string& path, std::string_view contents, unsigned new_file_mode = kOrdinaryFileMode);

// The process's umask, read without changing it (umask(2) sets it while it reads it, a race with
// any other thread that creates a file meanwhile).
unsigned process_umask();

}  // namespace swz
