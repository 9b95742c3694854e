// Sessions: JSON and file round trips, atomic saves, the last session
// reopening, and broken files that show an error and change nothing.
#include <fstream>
#include <sstream>

#include "gui_fixture.h"
#include "swz/error.h"
#include "swz/factories.h"
#include "swz/layout_io.h"

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
  s.problem.reader = LoadedLayout{layout_from_json(layout_to_json(p.read.layout)).layout, "reader.json"};
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
    o.start = ProblemState{};
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
  EXPECT_EQ(bench_->session().problem, ProblemState{});
  EXPECT_EQ(slurp(last_session_path()), "garbage");
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
