// Claims in words (claim_words.h): every claim of every shipped lesson, and every exercise
// goal, reads as a sentence on slides, pages and handouts, with no machine syntax left.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "swz/teach/claim_words.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_pages.h"

namespace swz {
namespace {

// What a projected sentence must not show: the file's notation. The TMA driver's enum names
// (CU_TENSOR_MAP_SWIZZLE_128B) are what a student types, so they stay as the driver spells them, and
// so does PTX's cp.async (cp.async.cg), an instruction's name and no path.
std::string machine_syntax(const std::string& sentence) {
  const std::string named = std::regex_replace(sentence, std::regex("CU_TENSOR_MAP_SWIZZLE_[A-Z0-9]+"), "MODE");
  const std::string text = std::regex_replace(named, std::regex("cp\\.async(\\.c[ag])?"), "COPY");
  if (text.find("==") != std::string::npos) return "'=='";
  if (text.find('_') != std::string::npos) return "an underscore";
  std::smatch m;
  if (std::regex_search(text, m, std::regex("[a-z_]+(\\([^)]*\\))?\\.[a-z_]+"))) return "the path '" + m.str() + "'";
  if (text.empty() || text.back() != '.') return "no full stop at the end";
  return "";
}

TEST(ClaimWords, EveryShippedClaimReadsAsASentence) {
  int claims = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& step = lesson.steps[i];
      std::vector<LessonClaim> all = step.claims;
      if (step.exercise) all.insert(all.end(), step.exercise->goal.begin(), step.exercise->goal.end());
      for (const LessonClaim& c : all) {
        ++claims;
        for (const MathStyle style : {MathStyle::Unicode, MathStyle::Html}) {
          const std::string words = claim_in_words(c.quantity, c.expected, style);
          EXPECT_EQ(machine_syntax(words), "") << file.filename().string() << " step " << i + 1 << ": " << c.quantity << " -> " << words;
          if (c.quantity.find_first_of("._(") != std::string::npos) {  // a plain word like "masks" may read as itself
            EXPECT_EQ(words.find(c.quantity), std::string::npos) << c.quantity << " -> " << words;
          }
        }
      }
    }
  }
  EXPECT_GE(claims, 250);
}

TEST(ClaimWords, ThePhraseCarriesTheValue) {
  EXPECT_EQ(claim_in_words("read.wavefronts", 2, MathStyle::Unicode), "The read takes 2 wavefronts per instruction.");
  EXPECT_EQ(claim_in_words("store.wavefronts", 1, MathStyle::Unicode), "The store takes 1 wavefront per instruction.");
  EXPECT_EQ(claim_in_words("bank(1,0)", 4, MathStyle::Unicode), "Element (1, 0) lives in bank 4.");
  EXPECT_EQ(claim_in_words("tma(64).repeat_bytes", 512, MathStyle::Unicode), "The 64-byte TMA swizzle mode repeats every 512 bytes.");
  EXPECT_EQ(claim_in_words("read.intersection_basis", nlohmann::json::array({"m0^n1"}), MathStyle::Unicode),
            "For the read, the segment and thread subspaces meet in span{m0\u2295n1}.");
  EXPECT_EQ(claim_in_words("element_at(34)", nlohmann::json::array({4, 2}), MathStyle::Unicode), "Offset 34 holds element (4, 2).");
  EXPECT_EQ(claim_in_words("cp_async(4,16,4).wavefronts", 4, MathStyle::Unicode),
            "A warp's cp.async of 4 bytes a lane, lane i from global byte 16i to shared byte 4i, takes 4 wavefronts per "
            "instruction.");
  EXPECT_EQ(
      claim_in_words("cp_async(4,128,4).source_banks", 1, MathStyle::Unicode),
      "A warp's cp.async of 4 bytes a lane, lane i from global byte 128i to shared byte 4i, reads its sources from 1 bank.");
  EXPECT_EQ(claim_in_words("cp_async_cg(16,16).modelled", false, MathStyle::Unicode),
            "A warp's 16-byte cp.async.cg, lane i from global byte 16i to shared byte 16i, is not modelled: its count is the "
            "store rule's.");
  EXPECT_EQ(claim_in_words("cp_async.rows(8192).wavefronts", 32, MathStyle::Unicode),
            "Issued as cp.async from global rows 8192 bytes apart, the store takes 32 wavefronts per instruction.");
  EXPECT_EQ(claim_in_words("layout.description", "Swizzle<1,2,3> o (8,8):(1,8)", MathStyle::Html),
            "The shared layout is Swizzle&lt;1,2,3&gt; o (8,8):(1,8).");
}

TEST(ClaimWords, PagesShowClaimsInWords) {
  const Lesson lesson = load_lesson_file(std::string(SWZ_LESSONS_DIR) + "/toy-gpu.json");
  const std::vector<LessonPage> pages = lesson_pages(lesson);
  int shown = 0;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    for (const ClaimCheck& c : check_claims(lesson.steps[i])) {
      ++shown;
      EXPECT_NE(pages[i].contents.find(claim_in_words(c.claim.quantity, c.actual, MathStyle::Html)), std::string::npos) << c.claim.quantity;
      EXPECT_EQ(pages[i].contents.find(">" + c.claim.quantity), std::string::npos) << c.claim.quantity;
    }
  EXPECT_GT(shown, 0);
}

}  // namespace
}  // namespace swz
