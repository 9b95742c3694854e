// A kernel's SASS listing (core/include/swz/kernel/sass.h) and the audit's copies priced with it
// (core/src/kernel/audit_sass.h), on kernels measured on an H200 (tests/data/triton/copies: Triton
// 3.6, one CTA): the listing's three printings, bad listings, the match of LDGSTS to copies, and a
// masked 16-byte copy priced by the predicate register ptxas gave it.
#include <gtest/gtest.h>

#include "kept_copies.h"
#include "swz/error.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/sass.h"

namespace {

using swz_test::copy_on_line;
using swz_test::mentions;
const auto kept = swz_test::kept_copies_file;

std::string error_of(const std::string& text) {
  try {
    (void)swz::sass::read_listing(text, "k.sass");
  } catch (const swz::Error& e) {
    return e.what();
  }
  return "";
}

// The same LDGSTS printed by Triton (asm["sass"]), cuobjdump -sass and nvdisasm: one reading.
TEST(SassListing, ReadsTheThreePrintings) {
  const char* triton =
      "Function:matmul\n--:-:-:-:1\tLDGSTS.E.BYPASS.128 [R11+0x800], desc[UR20][R4.64], P0;\nLBB0:\n"
      "--:-:-:-:6\t@!P0 BRA LBB0;\n";
  const char* cuobjdump =
      "\tcode for sm_90\n\t\tFunction : matmul\n\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
      "        /*0590*/                   LDGSTS.E.BYPASS.128 [R11+0x800], desc[UR20][R4.64], P0 ;   /* 0x0080000004"
      "0b7fae */\n                                                                      /* 0x000fe2000b9a1a14 */\n"
      "        /*0820*/              @!P0 BRA 0xd40 ;    /* 0x0000000400448947 */\n";
  const char* nvdisasm =
      "\t.section\t.text.matmul,\"ax\",@progbits\n.text.matmul:\n"
      "        /*0590*/                   LDGSTS.E.BYPASS.128 [R11+0x800], desc[UR20][R4.64], P0 ;\n"
      ".L_x_0:\n        /*0820*/              @!P0 BRA `(.L_x_0) ;\n";
  for (const char* text : {triton, cuobjdump, nvdisasm}) {
    const swz::sass::Listing l = swz::sass::read_listing(text, "k.sass");
    ASSERT_EQ(l.functions.size(), 1u) << text;
    const swz::sass::Function& f = l.function("matmul");
    ASSERT_EQ(f.instructions.size(), 2u) << text;
    const swz::sass::Instruction& copy = f.instructions[0];
    EXPECT_EQ(copy.opcode, "LDGSTS.E.BYPASS.128");
    EXPECT_EQ(copy.operands, (std::vector<std::string>{"[R11+0x800]", "desc[UR20][R4.64]", "P0"}));
    EXPECT_EQ(swz::sass::predicate_operand(copy), "P0");
    EXPECT_EQ(f.instructions[1].guard, "!P0");
    EXPECT_EQ(f.instructions[1].opcode, "BRA");
  }
}

// The predicate operand of Triton's masked form; none for the plain and .ZFILL forms.
TEST(SassListing, PredicateOperandOfEachForm) {
  const swz::sass::Listing l = swz::sass::read_listing(
      "Function:k\n--:-:-:-:1\tLDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64], !P0;\n"
      "--:-:-:-:1\tLDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64], PT;\n"
      "--:-:-:-:1\tLDGSTS.E.BYPASS.128.ZFILL [R1], desc[UR4][R2.64], R5;\n--:-:-:-:1\tLDGSTS.E [R1], desc[UR4][R2.64];\n"
      "--:-:-:-:1\tIGMMA.64x128x32.S8.S8 R88, gdesc[UR12], RZ, !UPT;\n",
      "k.sass");
  const auto& ins = l.function("k").instructions;
  ASSERT_EQ(ins.size(), 5u);
  EXPECT_EQ(swz::sass::predicate_operand(ins[0]), "!P0");
  EXPECT_EQ(swz::sass::predicate_operand(ins[1]), "PT");
  EXPECT_EQ(swz::sass::predicate_operand(ins[2]), "");
  EXPECT_EQ(swz::sass::predicate_operand(ins[3]), "");
  EXPECT_EQ(ins[4].opcode, "IGMMA.64x128x32.S8.S8");  // a wgmma's shape in its opcode
  // What the audit holds of a listing: its LDGSTS alone, every line still read.
  std::string text = "Function:k\n";
  for (const auto& i : ins) text += "--:-:-:-:1\t" + i.opcode + " " + (i.operands.empty() ? "" : i.operands[0]) + ";\n";
  EXPECT_EQ(swz::sass::read_listing(text, "k.sass", "LDGSTS").function("k").instructions.size(), 4u);
  EXPECT_TRUE(mentions(error_of(text + "--:-:-:-:1\t[R1];\n"), "k.sass:7: expected an instruction"));
}

// Bad listings: one line naming the place.
TEST(SassListing, BadListingsAreOneLineNamingThePlace) {
  EXPECT_TRUE(mentions(error_of(""), "k.sass: no function in it"));
  EXPECT_TRUE(mentions(error_of("LDGSTS.E [R1], [R2.64];\n"), "k.sass: no function in it"));
  EXPECT_TRUE(mentions(error_of("Function:k\n--:-:-:-:1\tLDG\x01 R1;\n"),
                       "k.sass:2: not a SASS listing: control byte 0x01 at column 15"));
  EXPECT_TRUE(mentions(error_of("Function:k\n--:-:-:-:1\t[R1], R2;\n"), "k.sass:2: expected an instruction (OPCODE operands ;)"));
  EXPECT_TRUE(mentions(error_of("Function:k\n@P0 ;\n"), "k.sass:2: expected an instruction"));
  EXPECT_TRUE(mentions(error_of("Function:k\nFunction : k\n"), "k.sass:2: function 'k' again (first at line 1)"));
  EXPECT_TRUE(mentions(error_of("Function :\n"), "k.sass:1: a function header without a name"));
  const swz::sass::Listing l = swz::sass::read_listing("Function:a\nFunction:b\n", "k.sass");
  try {
    (void)l.function("matmul");
    ADD_FAILURE() << "found a function the listing does not hold";
  } catch (const swz::Error& e) {
    EXPECT_STREQ(e.what(), "k.sass: no function 'matmul' in the listing (it holds a, b)");
  }
}

// int8 128x128x64 at 3 stages, K = 4 x BK (h200-20261128): its first prologue stage's LDGSTS read P0
// and measured 4 each, its second stage's read P2 and measured 8, its loop's read !P0 and measured 8
// (per-instruction/matmul_int8_128x128x64_w4s3.csv). Without the SASS the first stage's line gives
// both ends (4..8); with it, each line its measured count.
TEST(AuditSass, PredicateRegisterPricesEachStage) {
  const std::string ttgir = kept("h200-20261128/matmul_int8_128x128x64_w4s3.ttgir");
  const swz::sass::Listing listing = swz::sass::read_listing(kept("h200-20261128/matmul_int8_128x128x64_w4s3.sass"), "int8.sass");
  const swz::ArgumentValues launch{{"M", 128}, {"N", 128}, {"K", 256}};
  const swz::AuditReport without = swz::audit_module(ttgir, "int8.ttgir", "", launch);
  const swz::AuditReport with = swz::audit_module(ttgir, "int8.ttgir", "", launch, &listing);
  EXPECT_DOUBLE_EQ(*copy_on_line(without, 61).wavefronts, 8.0);
  EXPECT_TRUE(mentions(copy_on_line(without, 61).note, "has also measured only its ideal, 4.00 against 8.00"));
  const swz::AuditAccess& first = copy_on_line(with, 61);
  EXPECT_DOUBLE_EQ(*first.wavefronts, 4.0);
  EXPECT_DOUBLE_EQ(*first.conflicts, 0.0);
  EXPECT_EQ(first.sass_lines, (std::vector<int>{80, 82, 84, 85}));
  EXPECT_TRUE(mentions(first.note, "its LDGSTS (SASS lines 80, 82, 84, 85) read P0: its ideal")) << first.note;
  const swz::AuditAccess& second = copy_on_line(with, 70);
  EXPECT_DOUBLE_EQ(*second.wavefronts, 8.0);
  EXPECT_TRUE(mentions(second.note, "read P2: rule 5")) << second.note;
  const swz::AuditAccess& loop = copy_on_line(with, 105);
  EXPECT_DOUBLE_EQ(*loop.issued_wavefronts, 8.0);
  EXPECT_TRUE(mentions(loop.note, "read !P0: rule 5")) << loop.note;
  // The counters of the whole launch: 7.333 wavefronts per LDGSTS (copy_counters.json).
  double wavefronts = 0, instructions = 0;
  for (const auto& a : with.accesses)
    if (a.op == "ttg.async_copy_global_to_local") {
      wavefronts += (a.issued_wavefronts ? *a.issued_wavefronts : *a.wavefronts) * a.instructions * a.executions;
      instructions += static_cast<double>(a.instructions * a.executions);
    }
  EXPECT_NEAR(wavefronts / instructions, 7.0 + 1.0 / 3.0, 1e-12);
}

// bf16 64x64x32 at 4 stages (h200-20261129-k64): the first stage's A copy reads P1. At K = 32 its
// stage is the only one moving data and it counted its ideal (4); at K = 64 the second stage moves
// data too and it counted rule 5 (8) (h200-20261129-predicated-off). The later stages, predicated
// off, write their zeros alone: 4. In the loop, predicated off, its copies read !P0 and counted rule 5.
TEST(AuditSass, AStageAloneCountsItsIdeal) {
  const std::string ttgir = kept("h200-20261129-k64/matmul_bf16_64x64x32_w4s4.ttgir");
  const swz::sass::Listing listing =
      swz::sass::read_listing(kept("h200-20261129-k64/matmul_bf16_64x64x32_w4s4.sass"), "bf16.sass");
  const swz::AuditReport alone = swz::audit_module(ttgir, "bf16.ttgir", "", {{"M", 64}, {"N", 64}, {"K", 32}}, &listing);
  EXPECT_DOUBLE_EQ(*copy_on_line(alone, 62).wavefronts, 4.0);
  EXPECT_TRUE(mentions(copy_on_line(alone, 62).note, "read P1: its prologue stage 0 is the only stage moving data"))
      << copy_on_line(alone, 62).note;
  const swz::AuditAccess& off = copy_on_line(alone, 81);
  EXPECT_DOUBLE_EQ(*off.issued_wavefronts, 4.0);
  EXPECT_TRUE(mentions(off.note, "predicated off, its LDGSTS read P0: its shared writes alone")) << off.note;
  const swz::AuditReport two = swz::audit_module(ttgir, "bf16.ttgir", "", {{"M", 64}, {"N", 64}, {"K", 64}}, &listing);
  EXPECT_DOUBLE_EQ(*copy_on_line(two, 62).wavefronts, 8.0);
  EXPECT_TRUE(mentions(copy_on_line(two, 62).note, "read P1: rule 5")) << copy_on_line(two, 62).note;
  EXPECT_DOUBLE_EQ(*copy_on_line(two, 81).wavefronts, 4.0);  // stage 1 reads P0
  const swz::AuditAccess& loop = copy_on_line(two, 135);
  EXPECT_DOUBLE_EQ(*loop.issued_wavefronts, 8.0);
  EXPECT_TRUE(mentions(loop.note, "predicated off, its LDGSTS read !P0: rule 5 at its pointers")) << loop.note;
}

// A listing that is not the module's kernel: one line naming both.
TEST(AuditSass, AListingOfAnotherKernelIsRefused) {
  const std::string ttgir = kept("h200-20261128/matmul_int8_128x128x64_w4s3.ttgir");
  auto refusal = [&](const std::string& sass) {
    const swz::sass::Listing listing = swz::sass::read_listing(sass, "other.sass");
    try {
      (void)swz::audit_module(ttgir, "int8.ttgir", "", {}, &listing);
    } catch (const swz::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(mentions(refusal("Function:attn_fwd\n"), "other.sass: no function 'matmul' in the listing (it holds attn_fwd)"));
  EXPECT_TRUE(mentions(refusal("Function:matmul\n--:-:-:-:1\tLDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64], P0;\n"),
                       "other.sass: function matmul (line 1) issues 1 LDGSTS; the 3 copies of int8.ttgir issue 12 per thread "
                       "(line 61: 4, line 70: 4, line 105: 4): not this module's SASS"));
  std::string narrow = "Function:matmul\n";
  for (int i = 0; i < 12; ++i) narrow += "--:-:-:-:1\tLDGSTS.E [R1], desc[UR4][R2.64], P0;\n";
  EXPECT_TRUE(mentions(refusal(narrow),
                       "other.sass:2: LDGSTS.E moves 4 bytes a lane where the copy at int8.ttgir line 61 "
                       "moves 16: not this module's SASS"));
}

}  // namespace
