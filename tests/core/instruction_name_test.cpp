// The one name of each side's instruction (bank.h: instruction_kind / instruction_name):
// every kind an access can issue, and the name reads back as the same instruction.
#include <gtest/gtest.h>

#include "swz/layout/factories.h"
#include "swz/sim/bank.h"
#include "swz/sim/warp_access.h"

namespace {

swz::Access access(swz::AccessKind kind, int ldmatrix = 0, bool trans = false) {
  return swz::Access{swz::LinearLayout{}, kind, ldmatrix, 0, trans};
}

TEST(InstructionName, PlainLoadsAndStoresByWidth) {
  using swz::AccessKind;
  const std::pair<int, const char*> stores[] = {{128, "STS.128"}, {64, "STS.64"}, {32, "STS.32"}, {16, "STS.U16"}, {8, "STS.U8"}};
  for (const auto& [bits, name] : stores) EXPECT_EQ(swz::instruction_name(access(AccessKind::Store), bits), name);
  const std::pair<int, const char*> loads[] = {{128, "LDS.128"}, {64, "LDS.64"}, {32, "LDS.32"}, {16, "LDS.U16"}, {8, "LDS.U8"}};
  for (const auto& [bits, name] : loads) EXPECT_EQ(swz::instruction_name(access(AccessKind::Load), bits), name);
}

TEST(InstructionName, MatrixInstructionsWithAndWithoutTrans) {
  using swz::AccessKind;
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Load, 4), 128), "LDSM.x4");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Load, 4, true), 128), "LDSM.x4.trans");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Load, 2), 128), "LDSM.x2");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Load, 1, true), 128), "LDSM.x1.trans");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Store, 4), 128), "STSM.x4");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Store, 4, true), 128), "STSM.x4.trans");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Store, 2, true), 0), "STSM.x2.trans");
  EXPECT_EQ(swz::instruction_name(access(AccessKind::Store, 1), 0), "STSM.x1");
}

// Every name reads back (parse_instruction_kind) as the kind it was made from: `conflicts --instruction`
// takes exactly what `solve --json` prints.
TEST(InstructionName, ReadsBackAsTheSameKind) {
  using swz::AccessKind;
  int checked = 0;
  for (AccessKind kind : {AccessKind::Load, AccessKind::Store}) {
    for (int bits : {8, 16, 32, 64, 128}) {
      const swz::Access a = access(kind);
      const auto back = swz::parse_instruction_kind(swz::instruction_name(a, bits));
      ASSERT_TRUE(back) << swz::instruction_name(a, bits);
      EXPECT_EQ(*back, swz::instruction_kind(a, bits));
      ++checked;
    }
    for (int matrices : {1, 2, 4})
      for (bool trans : {false, true}) {
        const swz::Access a = access(kind, matrices, trans);
        const auto back = swz::parse_instruction_kind(swz::instruction_name(a, 128));
        ASSERT_TRUE(back) << swz::instruction_name(a, 128);
        EXPECT_EQ(*back, swz::instruction_kind(a, 128));
        EXPECT_EQ(back->writes_shared(), kind == AccessKind::Store);
        ++checked;
      }
  }
  EXPECT_EQ(checked, 22);
}

}  // namespace
