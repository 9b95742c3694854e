#include "swz/io/utc_time.h"

#include <ctime>

namespace swz {
namespace {

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  return std::string(text, std::strftime(text, sizeof text, format, &utc));
}

}  // namespace

std::string utc_timestamp() { return utc_now("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_date() { return utc_now("%Y-%m-%d"); }

}  // namespace swz
