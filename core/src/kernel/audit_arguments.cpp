// audit_arguments.cpp: the values of a kernel's integer arguments and program ids as `--arg` and the
// workbench's Arguments field give them (audit.h).
#include <charconv>

#include "swz/error.h"
#include "swz/kernel/audit.h"

namespace swz {

std::optional<std::pair<std::string, std::int64_t>> read_argument_value(std::string_view given) {
  const std::size_t eq = given.find('=');
  std::int64_t value = 0;
  const char* end = given.data() + given.size();
  if (eq == 0 || eq == std::string_view::npos || eq + 1 == given.size()) return std::nullopt;
  const auto [ptr, ec] = std::from_chars(given.data() + eq + 1, end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;  // not an integer, or past 64 bits
  return std::make_pair(std::string(given.substr(0, eq)), value);
}

ArgumentValues read_argument_values(std::string_view text) {
  ArgumentValues values;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(" \t\n,", at);
    if (start == std::string_view::npos) break;
    const std::size_t stop = std::min(text.find_first_of(" \t\n,", start), text.size());
    const std::string_view item = text.substr(start, stop - start);
    const auto v = read_argument_value(item);
    if (!v) fail("'{}': expected NAME=VALUE with an integer VALUE (e.g. K=4096)", clipped(item));
    values[v->first] = v->second;
    at = stop;
  }
  return values;
}

}  // namespace swz
