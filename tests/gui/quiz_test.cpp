// The quiz under real clicks: every choice, right and wrong, of several questions of
// every kind; a fixed set to its final score; the reveal's problem on the workbench.
// The soak of 300 random answers is in soak_test.cpp.
#include <cstdio>

#include "classroom.h"
#include "gui_fixture.h"

namespace swz::gui::test {

TEST_F(GuiTest, QuizEveryChoiceOfQuestionsOfEveryKind) {
  Workbench& b = open();
  Classroom& c = classroom();
  int answered = 0, right = 0;
  for (int k = 0; k < kQuizKinds; ++k) {
    const auto kind = static_cast<QuizKind>(k);
    for (std::uint64_t seed = 11; seed < 14; ++seed) {
      // Each choice of the question in turn: the same question again for every pick.
      const QuizQuestion q = make_quiz_question(seed, kind);
      for (std::size_t pick = 0; pick < q.choices.size(); ++pick) {
        start_quiz(b, std::nullopt);
        c.question = q;
        c.score = {};
        frames(2);
        // The first click answers; every choice clicked after it must change nothing.
        click("quiz.choice." + std::to_string(pick));
        ASSERT_TRUE(c.answer.has_value()) << "the click on choice " << pick << " did not answer: " << q.prompt;
        EXPECT_EQ(*c.answer, static_cast<int>(pick));
        for (std::size_t other = 0; other < q.choices.size(); ++other) {
          click("quiz.choice." + std::to_string(other));
          EXPECT_EQ(*c.answer, static_cast<int>(pick)) << "a second click changed the answer";
        }
        ++answered;
        const bool is_right = static_cast<int>(pick) == q.answer;
        right += is_right ? 1 : 0;
        EXPECT_EQ(c.score.asked, 1) << quiz_kind_name(kind);
        EXPECT_EQ(c.score.correct, is_right ? 1 : 0) << quiz_kind_name(kind) << ": " << q.prompt << " pick " << q.choices[pick];
        if (q.problem) {
          click("quiz.show");
          frames(2);
          EXPECT_EQ(b.session().problem.preset, q.problem->preset) << q.prompt;
          EXPECT_EQ(b.session().problem.variant, q.problem->variant) << q.prompt;
        }
        click("quiz.next");
        EXPECT_FALSE(c.answer.has_value());
      }
    }
  }
  std::printf("quiz: %d answers by click over %d kinds, %d right\n", answered, kQuizKinds, right);
  EXPECT_GT(right, 0);
  EXPECT_GT(answered - right, 0);
  c.quiz_open = false;
}

TEST_F(GuiTest, QuizSetRunsToItsFinalScore) {
  Workbench& b = open();
  Classroom& c = classroom();
  std::string error;
  ASSERT_TRUE(open_quiz_set(b, "first-class", error)) << error;
  ASSERT_TRUE(c.quiz_set.has_value());
  const std::size_t n = c.quiz_set->questions.size();
  frames(2);
  int right = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(c.set_index, static_cast<int>(i));
    ASSERT_TRUE(c.question.has_value());
    EXPECT_EQ(c.question->prompt, c.quiz_set->questions[i].prompt) << "the set's questions come in order";
    if (i == 2) {  // one skipped
      click("quiz.next");
      continue;
    }
    // Right on even questions, wrong on odd ones.
    const int pick = i % 2 ? (c.question->answer + 1) % static_cast<int>(c.question->choices.size()) : c.question->answer;
    click("quiz.choice." + std::to_string(pick));
    right += i % 2 ? 0 : 1;
    click("quiz.next");
  }
  EXPECT_EQ(c.set_index, static_cast<int>(n));
  EXPECT_EQ(c.score.correct, right);
  EXPECT_EQ(c.score.asked, static_cast<int>(n) - 1);
  EXPECT_EQ(c.score.skipped, 1);
  EXPECT_EQ(c.score.passed(), static_cast<int>(n)) << "the final score counts the skip";
  ASSERT_TRUE(b.probe("quiz.restart").has_value()) << "no final score card";
  click("quiz.restart");
  EXPECT_EQ(c.set_index, 0);
  EXPECT_EQ(c.score.asked, 0);
  click("quiz.choice.0");
  EXPECT_EQ(c.score.asked, 1);
  c.quiz_open = false;
}

TEST_F(GuiTest, QuizSetThatDoesNotLoadIsNamed) {
  Workbench& b = open();
  std::string error;
  EXPECT_FALSE(open_quiz_set(b, "no-such-set", error));
  EXPECT_NE(error.find("no quiz set 'no-such-set'"), std::string::npos) << error;
  EXPECT_NE(error.find("first-class"), std::string::npos) << error;
}

}  // namespace swz::gui::test
