// What a lecturer reads in more than one place agrees: the planned time is the steps' sum wherever
// it is written, the presenter's "Next" is the lesson's own next step (no note names one of its own),
// a note that points at a construction step points at the one the Solver panel shows, and each quiz
// set asks only what the lessons it follows have taught, offered only once they have been taken.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "swz/solve/solver.h"
#include "swz/teach/lesson.h"
#include "swz/teach/quiz_set.h"

namespace swz {
namespace {

const std::filesystem::path kLecturesDir = SWZ_LESSONS_DIR;

std::vector<Lesson> shipped_lessons() {
  std::vector<Lesson> out;
  for (const auto& path : lesson_files(kLecturesDir)) out.push_back(load_lesson_file(path));
  return out;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LecturePlan, TheTotalIsTheStepsSumWhereverItIsWritten) {
  const std::vector<Lesson> lessons = shipped_lessons();
  double by_hand = 0;
  for (const Lesson& l : lessons)
    for (const LessonStep& s : l.steps) by_hand += s.minutes;
  EXPECT_DOUBLE_EQ(planned_lecture_minutes(lessons), by_hand);
  // The lessons' README promises the same number the presenter view shows (minutes_text, not a
  // rounded 86 or a stale 83.5).
  const std::string readme = file_text(kLecturesDir / "README.md");
  const std::string promise = "the shipped lessons plan " + minutes_text(by_hand) + " minutes";
  EXPECT_NE(readme.find(promise), std::string::npos) << "assets/lessons/README.md does not say: " << promise;
  EXPECT_EQ(minutes_text(85.5), "85.5");
  EXPECT_EQ(minutes_text(86.0), "86");
  EXPECT_EQ(minutes_text(1.25), "1.3");
}

TEST(LectureNotes, NoNoteNamesTheNextStepItself) {
  // The presenter view shows the next step's title and opening from the lesson data; a note's own
  // "Next: ..." drifted from it (cute-swizzle 12 promised "a stride that makes things worse" while
  // Next showed CUTLASS's table).
  for (const Lesson& l : shipped_lessons())
    for (const LessonStep& s : l.steps)
      for (const std::string& note : s.notes)
        EXPECT_EQ(note.find("Next:"), std::string::npos) << l.name << " '" << s.title << "': " << note;
}

TEST(LectureNotes, AConstructionStepNamedIsTheOneTheSolverShows) {
  int checked = 0;
  for (const Lesson& l : shipped_lessons())
    for (const LessonStep& s : l.steps) {
      if (!s.view.shows("solver")) continue;
      const SolveResult r = solve(problem_for_step(s));
      if (r.trace.empty()) continue;
      const int shown = std::clamp(s.view.solver_step, 0, static_cast<int>(r.trace.size()) - 1);
      std::vector<std::string> words = s.notes;
      words.insert(words.end(), s.paragraphs.begin(), s.paragraphs.end());
      for (std::size_t i = 0; i < r.trace.size(); ++i) {
        const std::string named = "the " + r.trace[i].title + " step";
        for (const std::string& w : words) {
          if (w.find(named) == std::string::npos) continue;
          ++checked;
          EXPECT_EQ(static_cast<int>(i), shown)
              << l.name << " '" << s.title << "' points at " << named << " while the Solver shows " << shown + 1 << ". "
              << r.trace[static_cast<std::size_t>(shown)].title;
        }
      }
    }
  EXPECT_GT(checked, 0) << "no note names a construction step: the check checks nothing";
}

TEST(QuizSets, EachSetAsksOnlyWhatTheLessonsItFollowsTeach) {
  const std::vector<Lesson> lessons = shipped_lessons();
  std::map<std::string, const Lesson*> by_name;
  for (const Lesson& l : lessons) by_name[l.name] = &l;
  const std::filesystem::path quiz_dir = kLecturesDir.parent_path() / "quizzes";
  int sets = 0;
  for (const auto& path : lesson_files(quiz_dir)) {
    const QuizSet set = load_quiz_set_file(path);
    ++sets;
    ASSERT_FALSE(set.assumes.empty()) << path.filename() << " names no lessons it follows ('assumes')";
    std::vector<Lesson> assumed;
    for (const std::string& name : set.assumes) {
      ASSERT_TRUE(by_name.count(name)) << path.filename() << " assumes '" << name << "', no shipped lesson";
      assumed.push_back(*by_name[name]);
    }
    for (const std::string& why : quiz_set_untaught(set, assumed)) ADD_FAILURE() << path.filename() << ": " << why;
  }
  EXPECT_GE(sets, 2);
  // A lesson offers a set only once the lessons it assumes are taken: the lesson itself or one
  // before it in the Classroom menu.
  for (const Lesson& l : lessons) {
    if (l.quiz.empty()) continue;
    const QuizSet set = load_quiz_set_file(resolve_quiz_set(l.quiz));
    for (const std::string& name : set.assumes)
      EXPECT_LE(by_name.at(name)->order, l.order)
          << l.name << " offers " << set.name << ", which assumes the later lesson " << name;
  }
}

TEST(QuizSets, AQuestionNoAssumedLessonTeachesIsNamed) {
  const QuizSet set = parse_quiz_set(nlohmann::json::parse(R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t",
      "assumes": ["toy-gpu"], "questions": [{"kind": "tma", "ask": "mode", "box_bytes": 64},
      {"kind": "swizzle", "swizzle": [3, 4, 3], "offset": 400}]})"),
                                     "t", "t.json");
  const std::vector<std::string> untaught = quiz_set_untaught(set, {load_lesson_file(kLecturesDir / "toy-gpu.json")});
  ASSERT_EQ(untaught.size(), 2u);
  EXPECT_EQ(untaught[0], "question 1 (tma): none of toy-gpu teaches TMA swizzle modes");
  EXPECT_NE(untaught[1].find("question 2 (swizzle): none of toy-gpu teaches CuTe's Swizzle<B,M,S>"), std::string::npos)
      << untaught[1];
  EXPECT_TRUE(quiz_set_untaught(
                  set, {load_lesson_file(kLecturesDir / "tma-swizzle.json"), load_lesson_file(kLecturesDir / "cute-swizzle.json")})
                  .empty());
}

}  // namespace
}  // namespace swz
