// error.h: the one exception type for bad input.
//
// Everything that comes from a user (files, flags, GUI fields) is validated in
// the core; a violation throws swz::Error with one line naming the problem.
// Front ends catch it: the CLI prints it and exits 2, the GUI shows it. Its message is valid
// UTF-8 whatever bytes the input put into it, so it can be written as JSON.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace swz {

// `text` with every byte that does not belong to a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF) replaced by U+FFFD.
inline std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = length != 0 && i + length <= text.size() && c != 0xC0 && c != 0xC1 && c <= 0xF4;
    for (std::size_t k = 1; ok && k < length; ++k) ok = (byte(i + k) & 0xC0) == 0x80;
    if (ok && length >= 3) {
      const unsigned char next = byte(i + 1);
      ok = !(c == 0xE0 && next < 0xA0) && !(c == 0xED && next > 0x9F) && !(c == 0xF0 && next < 0x90) &&
           !(c == 0xF4 && next > 0x8F);
    }
    if (!ok) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

// `text` as a message shows a user's input: its first `most` bytes and "..." where it is longer
// (a flag or a field can hold a megabyte; the message names it, it does not repeat it).
inline std::string clipped(std::string_view text, std::size_t most = 60) {
  return text.size() <= most ? std::string(text) : std::string(text.substr(0, most)) + "...";
}

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(valid_utf8(message)) {}
};

template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace swz
