// The quiz under real clicks: every choice, right and wrong, through several questions.
#include <cstdio>
#include <random>
#include <set>

#include "classroom.h"
#include "gui_fixture.h"

namespace swz::gui::test {

TEST_F(GuiTest, QuizSurvivesEveryChoiceOfSeveralQuestions) {
  open();
  Classroom& c = classroom();
  c.quiz_open = true;
  c.score = {};
  frames(3);
  int answered = 0, right = 0, wrong = 0;
  for (int question = 0; question < 6; ++question) {
    ASSERT_TRUE(c.question.has_value()) << "question " << question;
    const QuizQuestion q = *c.question;
    // Each choice once: the first click answers, the rest must be inert (and must not crash).
    // Right on even questions, wrong on odd ones.
    int pick = q.wavefronts;
    if (question % 2)
      for (int other : q.choices)
        if (other != q.wavefronts) pick = other;
    click("quiz.choice." + std::to_string(pick));
    ASSERT_TRUE(c.answer.has_value()) << "the click on " << pick << " did not answer";
    EXPECT_EQ(*c.answer, pick);
    ++answered;
    (pick == q.wavefronts ? right : wrong) += 1;
    for (int other : q.choices) {
      click("quiz.choice." + std::to_string(other));
      EXPECT_EQ(*c.answer, pick) << "a second click changed the answer";
    }
    EXPECT_EQ(c.score.asked, answered);
    EXPECT_EQ(c.score.correct, right);
    click("quiz.next");
    EXPECT_FALSE(c.answer.has_value());
  }
  EXPECT_GT(right, 0);
  EXPECT_GT(wrong, 0);
  c.quiz_open = false;
}

}  // namespace swz::gui::test

namespace swz::gui::test {

// 1,000 random quiz answers by real clicks (a tenth under the sanitizers): a random choice,
// sometimes a second click, sometimes Skip before answering; the score must follow every click.
TEST_F(GuiTest, QuizSoakOfRandomAnswers) {
#if defined(SWZ_SOAK_ACTIONS) && SWZ_SOAK_ACTIONS < 10000
  const int answers = 100;
#else
  const int answers = 1000;
#endif
  open();
  Classroom& c = classroom();
  c.quiz_open = true;
  c.score = {};
  frames(3);
  std::mt19937 rng(20261123);
  int asked = 0, right = 0, skipped = 0, second_clicks = 0;
  std::set<std::string> presets;
  std::set<int> picked_positions;
  while (asked < answers) {
    ASSERT_TRUE(c.question.has_value());
    const QuizQuestion q = *c.question;
    presets.insert(q.preset);
    if (rng() % 10 == 0) {  // skip without answering
      click("quiz.next");
      ++skipped;
      ASSERT_EQ(c.score.asked, asked);
      continue;
    }
    const std::size_t at = rng() % q.choices.size();
    picked_positions.insert(static_cast<int>(at));
    click("quiz.choice." + std::to_string(q.choices[at]));
    ASSERT_TRUE(c.answer.has_value());
    ++asked;
    right += q.choices[at] == q.wavefronts ? 1 : 0;
    if (rng() % 4 == 0) {
      click("quiz.choice." + std::to_string(q.choices[rng() % q.choices.size()]));
      ++second_clicks;
    }
    ASSERT_EQ(c.score.asked, asked);
    ASSERT_EQ(c.score.correct, right);
    click("quiz.next");
  }
  std::printf("quiz soak: %d answers (%d right, %d wrong), %d skipped, %d clicks after answering, %zu presets, choice positions %zu\n",
              asked, right, asked - right, skipped, second_clicks, presets.size(), picked_positions.size());
  EXPECT_GT(right, 0);
  EXPECT_GT(asked - right, 0);
  EXPECT_GT(skipped, 0);
  EXPECT_GT(second_clicks, 0);
  EXPECT_GE(presets.size(), 2u);
  c.quiz_open = false;
}

}  // namespace swz::gui::test
