#include "swz/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "swz/error.h"

namespace swz {

namespace {

namespace fs = std::filesystem;

// The path a write lands on: symbolic links followed to their final target (which may not exist yet).
fs::path final_target(const fs::path& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::error_code ec;
    const fs::path next = fs::read_symlink(p, ec);
    if (ec) fail("cannot write '{}': cannot read the link {}: {}", path.string(), p.string(), ec.message());
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  fail("cannot write '{}': too many levels of symbolic links", path.string());
}

void write_all(int fd, std::string_view contents, const std::string& path) {
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write '{}': {}", path, std::strerror(n < 0 ? errno : ENOSPC));
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace

unsigned process_umask() {
  // Linux says it in /proc/self/status ("Umask:\t0022") since 4.7.
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0) return static_cast<unsigned>(std::strtoul(line.c_str() + 6, nullptr, 8)) & 0777u;
  const mode_t mask = ::umask(0);  // elsewhere: read it by setting it, and put it back at once
  ::umask(mask);
  return static_cast<unsigned>(mask) & 0777u;
}

void write_file_atomically(const std::string& path, std::string_view contents, unsigned new_file_mode) {
  if (path.empty()) fail("no output file given");
  // stat() follows every link the kernel can, /dev/stdout -> /proc/self/fd/1 -> a pipe included.
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("cannot write '{}': it is a directory", path);
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket: write into it as it is.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot write '{}': {}", path, std::strerror(errno));
    try {
      write_all(fd, contents, path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) fail("cannot write '{}': {}", path, std::strerror(errno));
    return;
  }
  std::error_code ec;
  const fs::path target = exists ? fs::canonical(path, ec) : final_target(path);
  if (ec) fail("cannot write '{}': {}", path, ec.message());
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) fail("cannot write '{}': directory '{}' does not exist", path, dir.string());
  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail("cannot write '{}': {}", path, std::strerror(errno));
  try {
    write_all(fd, contents, path);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  // mkstemp creates 0600: keep the replaced file's permissions, or give what a new file of this kind gets.
  ::fchmod(fd, exists ? (st.st_mode & 07777) : static_cast<mode_t>(new_file_mode & 0777u & ~process_umask()));
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    fail("cannot write '{}': {}", path, reason);
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    fail("cannot replace '{}': {}", path, reason);
  }
}

}  // namespace swz
