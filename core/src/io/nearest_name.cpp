#include "swz/io/nearest_name.h"

#include <algorithm>
#include <numeric>

namespace swz {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& known, std::size_t limit) {
  std::string_view best;
  std::size_t best_distance = limit + 1;
  for (std::string_view k : known)
    if (const std::size_t d = edit_distance(name, k); d < best_distance) best = k, best_distance = d;
  return best;
}

}  // namespace swz
