// Sessions: JSON and file round trips, atomic saves, the last session
// reopening, and broken files that show an error and change nothing.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "gui_fixture.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/io/layout_io.h"

namespace swz::gui::test {

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Session interesting_session() {
  Session s;
  s.problem.preset = "transpose16x32";
  s.problem.masks = {2, 4, 8, 16};
  const Problem p = make_preset("transpose16x32");
  s.problem.reader = SpecLayout{layout_from_json(layout_to_json(p.read.layout)).layout, "reader.json"};
  s.trace.side = Side::Store;
  s.trace.step = 7;
  s.trace.seconds_per_step = 0.25f;
  s.view.ui_scale = 1.25f;
  s.view.panels["memory"] = false;
  s.view.tensor_zoom = 20.0f;
  s.view.tensor_pan_x = 3.0f;
  s.view.tensor_pan_y = 1.5f;
  s.view.ring_lane_a = 4;
  s.view.ring_lane_b = 17;
  s.view.memory_coloring = MemoryColoring::Row;
  s.view.solver_step = 3;
  return s;
}

}  // namespace

TEST(Session, JsonRoundTrip) {
  const Session s = interesting_session();
  EXPECT_EQ(session_from_json(to_json(s)), s);
  EXPECT_EQ(session_from_json(nlohmann::json::parse(to_json(s).dump())), s);
  EXPECT_EQ(to_json(s)["version"], kSessionVersion);
  EXPECT_EQ(session_from_json(to_json(Session{})), Session{});
}

TEST(Session, RejectsWhatItCannotRead) {
  nlohmann::json j = to_json(Session{});
  j["version"] = kSessionVersion + 1;
  EXPECT_THROW(session_from_json(j), Error);
  j = to_json(Session{});
  j["format"] = "something else";
  EXPECT_THROW(session_from_json(j), Error);
  j = to_json(Session{});
  j["problem"]["masks"] = "2,4";
  EXPECT_THROW(session_from_json(j), Error);
  j = to_json(Session{});
  j["trace"]["side"] = "sideways";
  EXPECT_THROW(session_from_json(j), Error);
  j = to_json(Session{});
  j["view"]["ui_scale"] = 100;
  EXPECT_THROW(session_from_json(j), Error);
  j = to_json(Session{});
  j["problem"]["shared"] = {{"origin", "x"}, {"layout", {{"reg_bases", nlohmann::json::array()}, {"shape", {16, 32}}}}};
  EXPECT_THROW(session_from_json(j), Error);  // a distributed layout where a shared one belongs
}

// A session file that cannot be read: load_session_file throws one line naming the
// problem (and the file), and the file's bytes are what they were.
static std::string failed_load_message(const std::filesystem::path& path) {
  const std::string before = slurp(path);
  std::string message;
  try {
    (void)load_session_file(path);
    ADD_FAILURE() << path << " loaded";
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_EQ(slurp(path), before) << "the file changed";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(path.filename().string()), std::string::npos) << message;
  return message;
}

static std::filesystem::path write_session_text(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(SessionFile, NewerVersionSaysSo) {
  const auto dir = std::filesystem::temp_directory_path() / ("swz-session-newer-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (int newer : {kSessionVersion + 1, 7, 1000000}) {
    nlohmann::json j = to_json(Session{});
    j["version"] = newer;
    j["problem"]["something_new"] = {{"added", "later"}};
    const auto path = write_session_text(dir, "newer.json", j.dump(2));
    const std::string m = failed_load_message(path);
    EXPECT_NE(m.find(fmt::format("was written by a newer version ({}) of swizzle-workbench; this one reads version {}", newer,
                                 kSessionVersion)),
              std::string::npos)
        << m;
  }
  // Huge versions (past int64) are newer too, not "missing".
  const auto path = write_session_text(dir, "huge.json",
                                       R"({"format": "swizzle-workbench-session", "version": 18446744073709551615})");
  EXPECT_NE(failed_load_message(path).find("newer version (18446744073709551615)"), std::string::npos);
  // Older than any version there was: a different message.
  const auto zero = write_session_text(dir, "zero.json", R"({"format": "swizzle-workbench-session", "version": 0})");
  EXPECT_EQ(failed_load_message(zero).find("written by a newer"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(SessionFile, CorruptedJsonNamesTheProblem) {
  const auto dir = std::filesystem::temp_directory_path() / ("swz-session-corrupt-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::string> corrupted = {
      "{ this is not json",
      std::string(R"({"format": "swizzle-workbench-session", )") + '\0' + R"("version": 1})",
      "\xff\xfe{\"format\"}",
      "",
      "[1, 2, 3",
      R"({"format": "swizzle-workbench-session", "version": 1,,})",
  };
  for (std::size_t i = 0; i < corrupted.size(); ++i) {
    SCOPED_TRACE(i);
    const auto path = write_session_text(dir, "corrupt" + std::to_string(i) + ".json", corrupted[i]);
    const std::string m = failed_load_message(path);
    EXPECT_NE(m.find("not a valid session file (broken JSON"), std::string::npos) << m;
  }
  std::filesystem::remove_all(dir);
}

TEST(SessionFile, TruncatedFileNamesTheProblem) {
  const auto dir = std::filesystem::temp_directory_path() / ("swz-session-truncated-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string whole = to_json(interesting_session()).dump(2) + "\n";
  const auto full = write_session_text(dir, "whole.json", whole);
  ASSERT_EQ(load_session_file(full), interesting_session());
  // Every cut short of the closing brace is broken JSON, said as such.
  const std::size_t end = whole.rfind('}');
  for (std::size_t cut : {std::size_t{1}, std::size_t{10}, whole.size() / 3, whole.size() / 2, end - 1, end}) {
    SCOPED_TRACE(cut);
    const auto path = write_session_text(dir, "cut.json", whole.substr(0, cut));
    const std::string m = failed_load_message(path);
    EXPECT_NE(m.find("broken JSON"), std::string::npos) << m;
    EXPECT_NE(m.find("parse error"), std::string::npos) << m;
  }
  std::filesystem::remove_all(dir);
}

TEST(SessionFile, WrongTypesNameTheField) {
  const auto dir = std::filesystem::temp_directory_path() / ("swz-session-types-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {"/version", "1", "'version' must be an integer"},
      {"/format", 1, "not a workbench session"},
      {"/problem", nlohmann::json::array(), "'problem' must be one JSON object"},
      {"/problem/preset", 5, "'problem.preset' must be a string"},
      {"/problem/shape", "16x32", "'problem.shape' must be a list of whole numbers"},
      {"/problem/shape", {16, -1}, "'problem.shape' must be a list of whole numbers from 0 to 32768"},
      {"/problem/element_bits", 16.5, "'problem.element_bits' must be a whole number"},
      {"/problem/banks", 1000, "'problem.banks': 1000 is not a power of two from 1 to 64"},
      {"/problem/masks", {1, "2"}, "'problem.masks' must be a list of whole numbers"},
      {"/problem/masks", {-1}, "'problem.masks' must be a list of whole numbers"},
      {"/problem/shared", "xor.json", "'problem.shared' must be an object with 'origin' and 'layout'"},
      {"/problem/shared", {{"origin", "x"}, {"layout", 3}}, "'problem.shared'"},
      {"/trace/side", true, "'trace.side' must be a string"},
      {"/trace/playing", "yes", "'trace.playing' must be true or false"},
      {"/trace/step", 1e300, "'trace.step' must be an integer"},
      {"/view/ui_scale", "big", "'view.ui_scale' must be a number"},
      {"/view/panels", {{"memory", 1}}, "'view.panels' must be an object of panel id: true/false"},
      {"/view/tensor_pan", {1, 2, 3}, "'view.tensor_pan' must be a pair of numbers"},
      {"/view/tensor_pan", {1e300, 0}, "'view.tensor_pan'"},
      {"/view/ring_a", {1e300, 0}, "'view.ring_a'"},
      {"/view/ring_b", {-3, 0}, "'view.ring_b'"},
      {"/view/ring_b", {1.5, 0}, "'view.ring_b' must be a pair of integers"},
      {"/view/memory_coloring", "plaid", "'view.memory_coloring' must be \"column\", \"row\" or \"bank\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.pointer) + " = " + c.value.dump());
    nlohmann::json j = to_json(interesting_session());
    j[nlohmann::json::json_pointer(c.pointer)] = c.value;
    EXPECT_THROW(session_from_json(j), Error);
    const auto path = write_session_text(dir, "types.json", j.dump(2));
    const std::string m = failed_load_message(path);
    EXPECT_NE(m.find(c.expect), std::string::npos) << m;
  }
  std::filesystem::remove_all(dir);
}

TEST(Session, AtomicSaveLeavesNoTemporary) {
  const auto dir = temp_dir("atomic");
  const auto path = dir / "s.json";
  save_session_file(path, Session{});
  save_session_file(path, interesting_session());
  EXPECT_EQ(load_session_file(path), interesting_session());
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  EXPECT_THROW(save_session_file(path / "under-a-file.json", Session{}), Error);  // parent is a file
  std::filesystem::remove_all(dir);
}

TEST_F(GuiTest, SaveLoadRoundTripThroughTheWorkbench) {
  const auto dir = temp_dir("files");
  Workbench& b = open();
  ASSERT_TRUE(b.apply(cmd::set_masks("XOR 2m", {2, 4, 8, 16})));
  ASSERT_TRUE(b.apply(cmd::set_step(5)));
  ASSERT_TRUE(b.apply(cmd::set_side(Side::Store)));
  ASSERT_TRUE(b.apply(cmd::show_panel("algebra", false)));
  frames(2);
  const Session saved = b.session();
  ASSERT_TRUE(b.save_session(dir / "a.json"));
  EXPECT_FALSE(b.dirty());

  Workbench& b2 = open();
  EXPECT_NE(b2.session(), saved);
  ASSERT_TRUE(b2.open_session(dir / "a.json")) << b2.error();
  EXPECT_EQ(b2.session(), saved);
  EXPECT_EQ(b2.model().problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  frames(2);
  EXPECT_FALSE(b2.probe("algebra.agree").has_value());  // the hidden panel stays hidden
  std::filesystem::remove_all(dir);
}

TEST_F(GuiTest, BrokenSessionFileShowsErrorAndChangesNothing) {
  const auto dir = temp_dir("broken");
  Workbench& b = open();
  ASSERT_TRUE(b.apply(cmd::set_masks("XOR m", {1, 2, 4, 8})));
  const Session before = b.session();
  const std::vector<std::string> bad_files = {
      "{ this is not json",
      R"({"format": "swizzle-workbench-session", "version": 99})",
      R"({"format": "swizzle-workbench-session", "version": 1, "problem": {"preset": "no-such-preset"}})",
      R"({"format": "swizzle-workbench-session", "version": 1, "problem": {"masks": [64]}})",
  };
  for (std::size_t i = 0; i < bad_files.size(); ++i) {
    SCOPED_TRACE(bad_files[i]);
    const auto path = dir / ("bad" + std::to_string(i) + ".json");
    { std::ofstream(path) << bad_files[i]; }
    const std::string bytes = slurp(path);
    EXPECT_FALSE(b.open_session(path));
    EXPECT_FALSE(b.error().empty());
    EXPECT_EQ(b.session(), before);
    EXPECT_EQ(b.model().problem.masks, (std::vector<std::uint32_t>{1, 2, 4, 8}));
    EXPECT_EQ(slurp(path), bytes);  // the file is untouched
    frames(1);
    EXPECT_TRUE(b.probe("status.error").has_value());  // the error is on screen
  }
  std::filesystem::remove_all(dir);
}

TEST_F(GuiTest, LastSessionReopensOnStart) {
  {
    WorkbenchOptions o;
    o.autosave = true;
    o.restore_last = false;
    o.start = ProblemSpec{};
    bench_ = std::make_unique<Workbench>(o);
    frames(1);
    ASSERT_TRUE(bench_->apply(cmd::set_masks("XOR 2m", {2, 4, 8, 16})));
    ASSERT_TRUE(bench_->apply(cmd::set_step(3)));
    bench_.reset();  // saves the last session
  }
  ASSERT_TRUE(std::filesystem::exists(last_session_path()));
  WorkbenchOptions o;
  o.autosave = false;
  bench_ = std::make_unique<Workbench>(o);
  EXPECT_EQ(bench_->session().problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(bench_->session().trace.step, 3);

  // A broken last session: the workbench starts on the seed and says why.
  { std::ofstream(last_session_path()) << "garbage"; }
  bench_ = std::make_unique<Workbench>(o);
  EXPECT_FALSE(bench_->error().empty());
  EXPECT_EQ(bench_->session().problem, ProblemSpec{});
  EXPECT_EQ(slurp(last_session_path()), "garbage");
}

// A last session from a newer version (or a broken one) is reported, and the run that
// could not read it does not write over it, at exit or in its autosaves.
TEST_F(GuiTest, UnreadableLastSessionIsNeverOverwritten) {
  nlohmann::json newer = to_json(Session{});
  newer["version"] = kSessionVersion + 1;
  for (const std::string& text : {newer.dump(2), std::string("{\"format\": \"swizzle-workbench-session\", \"vers")}) {
    SCOPED_TRACE(text.substr(0, 60));
    std::filesystem::create_directories(last_session_path().parent_path());
    { std::ofstream(last_session_path(), std::ios::binary) << text; }
    WorkbenchOptions o;
    o.autosave = true;
    o.restore_last = true;
    bench_ = std::make_unique<Workbench>(o);
    EXPECT_FALSE(bench_->error().empty());
    if (text == newer.dump(2)) {
      EXPECT_NE(bench_->error().find(fmt::format("written by a newer version ({}) of swizzle-workbench", kSessionVersion + 1)),
                std::string::npos)
          << bench_->error();
    }
    frames(2);
    ASSERT_TRUE(bench_->apply(cmd::set_masks("XOR 2m", {2, 4, 8, 16})));
    frames(2);
    bench_.reset();  // exit: the autosave would run here
    EXPECT_EQ(slurp(last_session_path()), text);
  }
}

TEST_F(GuiTest, LayoutFilesLoadForEachRole) {
  const auto dir = temp_dir("layouts");
  const Problem p = make_preset("transpose16x32");
  { std::ofstream(dir / "b.json") << layout_to_json(p.read.layout).dump(); }
  { std::ofstream(dir / "m.json") << layout_to_json(toggle_grid(p.shape, {2, 4, 8, 16}).linear()).dump(); }
  Workbench& b = open();
  ASSERT_TRUE(b.load_layout_file(LayoutRole::Reader, dir / "b.json")) << b.error();
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 16);
  ASSERT_TRUE(b.load_layout_file(LayoutRole::Shared, dir / "m.json")) << b.error();
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  // Wrong kind for the role: refused with a message.
  EXPECT_FALSE(b.load_layout_file(LayoutRole::Writer, dir / "m.json"));
  EXPECT_NE(b.error().find("expected a distributed"), std::string::npos) << b.error();
  // The loaded layouts survive a session round trip.
  ASSERT_TRUE(b.save_session(dir / "s.json"));
  const Session s = b.session();
  Workbench& b2 = open();
  ASSERT_TRUE(b2.open_session(dir / "s.json")) << b2.error();
  EXPECT_EQ(b2.session(), s);
  EXPECT_EQ(b2.model().analysis.read.simulated.wavefronts, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace swz::gui::test
