// classroom.h: classroom mode. Lessons (swz/lesson.h) and the quiz
// (swz/quiz.h) over the live workbench, a presentation mode and a
// high-contrast theme for projectors.
//
// The Lesson and Quiz panels are Panel structs like the others, but they float
// above the tiles instead of taking a tile: opening a lesson must not move the
// panels the learner already knows, and a card can sit wherever the step's
// highlights are not. The Classroom menu opens them; the classroom owns them.
//
//   Classroom menu  ->  classroom_menu(bench), called from the main menu bar
//                       (it also schedules the floating panels and the
//                       highlight overlay for the end of the frame)
//   --lesson NAME --step K  ->  open_lesson(bench, NAME, K)
//   Next / Back, Page Down / Up, the step list, Next lesson, Take the quiz  ->  lecture.cpp
//   the presenter's view (notes, claims, next step, clock)  ->  presenter.h
//   --show quiz [--quiz-set FILE], the end of a lesson  ->  start_quiz(bench, set)
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "file_dialog.h"
#include "panel.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_predict.h"
#include "swz/teach/quiz.h"
#include "swz/teach/quiz_record.h"
#include "swz/teach/quiz_set.h"

namespace swz::gui {

class Workbench;

// A lesson file as found on disk: loaded, or the one-line reason it did not load.
struct LessonEntry {
  std::filesystem::path path;
  std::optional<Lesson> lesson;
  std::string error;
};

// How the current step's exercise ended: still open, solved by the learner, or given up with
// "Show the answer" (answered, not solved). Reset whenever a step is applied.
enum class ExerciseOutcome { Open, Solved, Answered };

// What a lesson's steps change in the view, as it was before the lesson opened.
struct ViewBeforeLesson {
  std::map<std::string, bool> panels;
  std::string focus;
  CellNumbers cells = CellNumbers::None;
};

struct Classroom {
  std::vector<LessonEntry> lessons;  // sorted by (order, name); failed files last
  bool scanned = false;
  int open_lesson = -1;      // index into lessons; -1: no lesson card
  int step = 0;              // 0-based step of the open lesson
  std::string lesson_error;  // shown on the card when a lesson failed to open
  bool quiz_open = false;
  QuizScore score;
  std::optional<QuizQuestion> question;
  std::optional<int> answer;  // index into question->choices of the learner's pick
  std::uint64_t next_seed = 1;
  std::uint64_t question_seed = 0;  // a random question on show is make_quiz_question(question_seed)
  std::optional<QuizSet> quiz_set;  // a fixed set: its questions in order, then the final score
  int set_index = 0;                // the set's question on show, from 0; == its size: the final score
  FileDialog quiz_dialog;           // Classroom > Open quiz set...
  // A student's record (quiz_record.h): once a name is given on the card, every answer is written.
  std::string student;                       // "" = answers not recorded
  std::filesystem::path records_dir;         // --quiz-records; empty = quiz_records_dir()
  std::optional<QuizRecord> record;          // this sitting's answers, from its first answer on
  std::filesystem::path record_path;         // its own file, chosen at its first answer
  std::string record_error;                  // why the last answer was not written
  bool presentation = false;        // large text (UI scale kPresentationScale)
  float scale_before = 1.0f;        // UI scale to return to when presentation ends
  bool high_contrast = false;
  bool was_high_contrast = false;  // to restore the light theme once when turned off

  // A lecture (lecture.cpp, presenter.h).
  bool show_claims = false;        // asked for on this step while claims are hidden (claims_hidden())
  bool fullscreen = false;         // wanted; the program's loop makes the window match (F11)
  bool presenter = false;          // presenter view wanted (--presenter, Classroom menu)
  bool presenter_window = false;   // it is open in a second window
  bool presenter_in_main = false;  // no second window could open: it floats over the workbench
  std::optional<std::chrono::steady_clock::time_point> lecture_started;  // for the presenter's elapsed time

  // The current step's exercise: the one-click answers stay disabled while it is Open.
  ExerciseOutcome exercise_outcome = ExerciseOutcome::Open;
  std::optional<std::string> exercise_answer;  // the core's solution in words once shown (none: no state solves it)
  // The (lesson, step) whose prediction was last checked: until a number is checked on the step on
  // show, the counts that answer it stay veiled (prediction_veil, lesson_predict.h).
  std::pair<int, int> prediction_checked_at{-1, -1};

  std::unique_ptr<Panel> lesson_panel, quiz_panel;
  std::optional<ViewBeforeLesson> view_before;  // restored when the lesson closes

  const Lesson* lesson() const;
  const LessonStep* current_step() const;
};
inline constexpr float kPresentationScale = 1.6f;

// One per process: the menu, the floating panels and the launch flags share it.
Classroom& classroom();

// Where lesson files live: $SWZ_LESSONS_DIR, else the nearest assets/lessons above the
// executable or the working directory.
std::filesystem::path lessons_dir();  // empty when none is found (lesson_paths.h)
// One line naming every place searched, for when lessons_dir() is empty.
std::string lessons_not_found();
// (Re)reads every lesson file of lessons_dir().
void scan_lessons(Classroom& c);

// Opens lesson NAME (a file stem in lessons_dir(), or a path to a .json file) at 1-based
// step `step` and applies that step. False with the reason in `error` when it cannot.
bool open_lesson(Workbench& bench, const std::string& name, int step, std::string& error);
// The same lookup without a workbench (for flags checked before any window opens).
bool check_lesson(const std::string& name, int step, std::string& error);
// Applies the open lesson's current step to the workbench (undoable, like any edit): its
// problem, access and register step, and its view (panels, focus, cell numbers, solver step).
void apply_lesson_step(Workbench& bench);
// Closes the lesson card and gives back the panels, focus and cell numbers of before the lesson.
void close_lesson(Workbench& bench);
// The workbench state a lesson step describes.
ProblemSpec state_for_step(const LessonStep& step);
Side side_for(LessonAccess access);

// Opens the quiz: a fixed set's questions in order with "question k of N" and a final score,
// or (nullopt) random questions of every kind. Resets the score.
void start_quiz(Workbench& bench, std::optional<QuizSet> set);
// The learner picks choice `choice` of the question on show: scores it and, when a student name
// is given, adds it to the sitting's record file (a new file at the sitting's first answer).
void answer_quiz(Workbench& bench, int choice);
// The learner passes the question on show without an answer: it counts against the score and is
// recorded as skipped (quiz_score.h), like an answer.
void skip_quiz_question(Workbench& bench);
// The sitting's record (quiz_record.h) for the named student: the open one while the student and
// the records folder stay the same, else a new one (set "" outside a quiz) whose file is chosen now.
// Throws swz::Error when no file can be made.
QuizRecord& sitting_record(Classroom& c);
// [SECTION] Practice (practice.cpp)
// The learner's typed text against the current step's prediction, checked by the core; when a
// student name is given, a number (right or wrong) is added to the sitting's record. Text that is
// no number is not recorded: the check's `problem` says why. The step must ask for a prediction.
PredictionCheck answer_prediction(Workbench& bench, const std::string& typed);
// Loads set WHAT (a .json path or a name in the quizzes folder) and starts it; false with the
// one-line reason in `error` when it does not load.
bool open_quiz_set(Workbench& bench, const std::string& what, std::string& error);
// The same load without a workbench (for flags checked before any window opens).
std::optional<QuizSet> load_quiz_set(const std::string& what, std::string& error);

// The Classroom menu; call inside the main menu bar every frame.
void classroom_menu(Workbench& bench);

// Theme for projectors: black on white, strong borders. Call after apply_theme.
void apply_high_contrast_theme();

std::unique_ptr<Panel> make_lesson_panel();
std::unique_ptr<Panel> make_quiz_panel();

// [SECTION] A lecture's controls (lecture.cpp), shared by the card and the presenter view

// Moves the open lesson to 0-based `step` and applies it, as Next does.
void go_to_step(Workbench& bench, int step);
// The lesson after the open one in the Classroom menu's order, -1 at the last.
int next_lesson_index();
// Opens that lesson at its first step; false when there is none.
bool open_next_lesson(Workbench& bench);
// Opens the quiz: the lesson's own set when it names one ("quiz"), else random questions.
void take_quiz(Workbench& bench);
// True in presentation mode and while a presenter view is open: the card is on a projector.
bool students_watching();
// True while students should not see the claims: they are watching and nobody asked for the
// claims on this step.
bool claims_hidden();
// True while a quiz question is on show and not yet answered: the workbench hides what would answer it.
bool quiz_question_open();
// The current step's exercise on the workbench's state, checked by the core again only when
// the state changes (a step solved once stays Solved); null when the step poses none. A check
// that throws leaves its message in `error`.
const ExerciseCheck* exercise_check(const Workbench& bench, std::string* error = nullptr);
// Why the one-click answers (the grid's named swizzles and Solver's answer, the Solver panel's
// Apply) are disabled now: the step's exercise is open and unsolved. nullptr when they are not.
const char* answers_locked(const Workbench& bench);
// The lock's reason as a tooltip over the item just drawn (disabled or not); nothing when unlocked.
void answers_locked_tooltip(const char* why);
// "Show the answer": the core's solution (solve_exercise) is revealed and the exercise is
// marked answered, not solved, which unlocks the answers.
void reveal_exercise_answer();
// Takes this frame's key presses (platform.h: none is lost): Page Down / Page Up move one step
// each, F11 toggles full screen. Arrows, Space, Home and End stay the trace's keys.
void lecture_keys(Workbench& bench);
// A combo listing the open lesson's steps; picking one jumps there. True when it jumped.
// Its items are probes "PROBE.1", "PROBE.2", ... while it is open.
bool step_combo(Workbench& bench, const char* id, float width, const std::string& probe);
// The step's claims with a check mark or a cross, checked against the core: on the step's own
// state, or (`live`, when the learner changed the workbench) on what the workbench shows now, so
// a check mark is always true for the state on screen. Checked again only when either changes.
struct ClaimList {
  const LessonStep* checked = nullptr;
  std::optional<ProblemSpec> checked_live;  // the state the checks are for; none: the step's own
  int checked_register_step = 0;
  std::vector<ClaimCheck> checks;
  std::string error;
  void draw(const LessonStep& step, const ProblemSpec* live = nullptr, int register_step = 0);
  std::size_t size(const LessonStep& step, const ProblemSpec* live = nullptr, int register_step = 0);
};

// Each highlight target of the current step and where it is on screen this frame (none: not
// drawn, or clipped away by its panel), and where the lesson card is.
std::vector<std::pair<std::string, std::optional<ImRect>>> lesson_targets(const Workbench& bench);
std::optional<ImRect> lesson_card_rect();

}  // namespace swz::gui
