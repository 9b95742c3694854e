// error.h: the one exception type for bad input.
//
// Everything that comes from a user (files, flags, GUI fields) is validated in
// the core; a violation throws swz::Error with one line naming the problem.
// Front ends catch it: the CLI prints it and exits 2, the GUI shows it.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace swz {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace swz
