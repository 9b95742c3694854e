// limits.h: the bounds every reader of outside input keeps, in one place.
//
// A file, a link, a session or stdin may come from anyone. Whatever it holds, reading it ends in
// bounded time and memory with one line naming the place:
//   kMaxNesting      brackets inside brackets, alias inside alias: every recursive reader
//                    (TTGIR/MLIR attributes and their alias references, JSON of specs, layouts,
//                    links, sessions, lessons) stops at this depth, so recursion never runs
//                    away with the stack. Real attributes nest under 10 deep; JSON files under 8.
//   kMaxInputBytes   the default cap of one file or stream (read_text_file); kernels and dumps,
//                    which are larger, read with kMaxKernelBytes.
// Text placed into a message is made valid UTF-8 (valid_utf8 in error.h), so that a message can
// always be written as JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace swz {

inline constexpr int kMaxNesting = 256;
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxKernelBytes = std::size_t{1} << 30;  // an MLIR_ENABLE_DUMP file of a large kernel

// nlohmann::json::parse with the nesting bound: deeper than kMaxNesting is an Error naming
// `origin` ("origin: nested more than 256 deep"); not JSON is an Error too ("origin: not valid
// JSON (...)").
nlohmann::json parse_json(std::string_view text, const std::string& origin);
// The same, answering a discarded value (is_discarded()) for text that is not JSON, for readers
// that say so in their own words; nesting past the bound still throws.
nlohmann::json parse_json_or_discarded(std::string_view text, const std::string& origin);

// The callback that bounds the nesting of nlohmann::json::parse (for readers with their own words for bad JSON).
nlohmann::json::parser_callback_t nesting_bound(const std::string& origin);

// Throws the one nesting message when `depth` passes kMaxNesting (for the recursive readers).
void check_nesting(int depth, const std::string& what);

}  // namespace swz
