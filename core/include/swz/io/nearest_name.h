// nearest_name.h: the known name a misspelt one most likely meant, for "did you mean ...?" in
// messages (a Triton attribute's kind or key, a command-line flag).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace swz {

// Levenshtein distance: the fewest single-character insertions, deletions and substitutions
// that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The known name closest to `name` within `limit` edits (the first of equals), or "".
std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& known, std::size_t limit);

}  // namespace swz
