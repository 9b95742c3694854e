// The values `swizzle audit --arg` and the workbench's Arguments field give a kernel's integer
// arguments and program ids (audit.h: read_argument_value, read_argument_values).
#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/kernel/audit.h"

TEST(AuditArguments, ReadsNameEqualsIntegerItems) {
  const auto one = swz::read_argument_value("%K=4096");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->first, "%K");
  EXPECT_EQ(one->second, 4096);
  EXPECT_EQ(swz::read_argument_value("pid_n=-1")->second, -1);
  for (const char* bad : {"", "K", "=3", "K=", "K=1x", "K= 1", "K=99999999999999999999", "K=0x10"})
    EXPECT_FALSE(swz::read_argument_value(bad)) << bad;

  const swz::ArgumentValues v = swz::read_argument_values("  M=128 N=96,K=256,, pid_n=1\n");
  EXPECT_EQ(v, (swz::ArgumentValues{{"K", 256}, {"M", 128}, {"N", 96}, {"pid_n", 1}}));
  EXPECT_TRUE(swz::read_argument_values(" , ").empty());
  EXPECT_EQ(swz::read_argument_values("K=1 K=2").at("K"), 2);  // the last one given, as repeated --arg
}

TEST(AuditArguments, AnItemThatIsNotNameEqualsValueIsNamed) {
  try {
    (void)swz::read_argument_values("M=128 N 96");
    ADD_FAILURE() << "accepted";
  } catch (const swz::Error& e) {
    EXPECT_STREQ(e.what(), "'N': expected NAME=VALUE with an integer VALUE (e.g. K=4096)");
  }
  try {
    (void)swz::read_argument_values("K=\xff");
    ADD_FAILURE() << "accepted";
  } catch (const swz::Error& e) {
    EXPECT_STREQ(e.what(), "'K=\xEF\xBF\xBD': expected NAME=VALUE with an integer VALUE (e.g. K=4096)");  // valid UTF-8
  }
}

// A field or flag holding a megabyte is named by its first 60 bytes, not repeated in the message.
TEST(AuditArguments, ALongItemIsNamedByItsStart) {
  const std::string item(1 << 20, 'N');
  try {
    (void)swz::read_argument_values("K=1 " + item);
    ADD_FAILURE() << "accepted";
  } catch (const swz::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "'" + std::string(60, 'N') + "...': expected NAME=VALUE with an integer VALUE (e.g. K=4096)");
  }
  EXPECT_EQ(swz::clipped("short"), "short");
  EXPECT_EQ(swz::clipped(std::string(60, 'x')), std::string(60, 'x'));
  EXPECT_EQ(swz::clipped("abcdef", 3), "abc...");
}
