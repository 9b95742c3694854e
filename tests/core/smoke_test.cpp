#include <gtest/gtest.h>
#include "swz/analysis.h"
TEST(Smoke, Seed) { auto p = swz::make_preset("transpose16x32"); auto a = swz::analyze(p); EXPECT_EQ(a.read.simulated.wavefronts, 16); }
