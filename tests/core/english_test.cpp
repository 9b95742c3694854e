// The plurals and articles every generated sentence takes (english.h).
#include "swz/export/english.h"

#include <gtest/gtest.h>

namespace {

TEST(English, CountsTakeTheSingularOnlyForOne) {
  EXPECT_EQ(swz::counted(1, "wavefront"), "1 wavefront");
  EXPECT_EQ(swz::counted(0, "wavefront"), "0 wavefronts");
  EXPECT_EQ(swz::counted(2, "wavefront"), "2 wavefronts");
  EXPECT_EQ(swz::counted(3, "matrix", "matrices"), "3 matrices");
  EXPECT_EQ(swz::counted(1, "matrix", "matrices"), "1 matrix");
  EXPECT_EQ(swz::plural(1, "bank"), "bank");
  EXPECT_EQ(swz::plural(32, "bank"), "banks");
}

TEST(English, NumbersTakeTheArticleOfHowTheyAreSpoken) {
  for (const char* an : {"8-way", "11-way", "18-way", "80-byte", "83", "800", "8192", "11000", "18000", "11000000"})
    EXPECT_EQ(swz::indefinite_article(an), "an") << an;
  for (const char* a : {"2-way", "16-way", "32-way", "1-way", "110", "118", "180", "1100", "4096", "100"})
    EXPECT_EQ(swz::indefinite_article(a), "a") << a;
  EXPECT_EQ(swz::with_article("8-way bank conflict"), "an 8-way bank conflict");
  EXPECT_EQ(swz::with_article("16-way bank conflict"), "a 16-way bank conflict");
}

TEST(English, WordsAndInitialismsTakeTheArticleOfTheirFirstSound) {
  EXPECT_EQ(swz::with_article("element"), "an element");
  EXPECT_EQ(swz::with_article("bank"), "a bank");
  EXPECT_EQ(swz::with_article("unit"), "a unit");
  EXPECT_EQ(swz::with_article("LDS.128"), "an LDS.128");
  EXPECT_EQ(swz::with_article("STSM.x4"), "an STSM.x4");
  EXPECT_EQ(swz::with_article("TMA copy"), "a TMA copy");
  EXPECT_EQ(swz::with_article("F2 basis"), "an F2 basis");
  EXPECT_EQ(swz::with_article("Swizzle"), "a Swizzle");
}

}  // namespace
