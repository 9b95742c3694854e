// utc_time.h: the one place that reads the wall clock for what the project writes down (the date
// of a measurement, the time a quiz answer was given), always in UTC so files from machines in
// different time zones sort and compare alike.
#pragma once

#include <string>

namespace swz {

// The current UTC time as "2026-11-26T14:05:09Z".
std::string utc_timestamp();
// The current UTC date as "2026-11-26".
std::string utc_date();

}  // namespace swz
