// The quiz under real clicks: every choice, right and wrong, through several questions.
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
