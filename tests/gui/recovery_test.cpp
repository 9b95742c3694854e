// Crash recovery: a run that did not close leaves its marker; the next start
// offers the autosaved work (and the file it had open) instead of reopening it
// silently, and "start fresh" keeps the autosave aside rather than deleting it.
#include <fstream>

#include <sys/wait.h>
#include <unistd.h>

#include "gui_fixture.h"

namespace swz::gui::test {

namespace {

// The pid of a process that has finished.
long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return static_cast<long>(child);
}

// What a crashed run leaves: its autosave (XOR 2m) and its marker.
void leave_crash(const std::optional<std::filesystem::path>& open_file = std::nullopt) {
  Session s;
  s.problem.masks = {2, 4, 8, 16};
  save_session_file(last_session_path(), s);
  nlohmann::json marker{{"pid", dead_pid()}};
  if (open_file) marker["session_file"] = open_file->string();
  std::ofstream(Workbench::running_marker_path()) << marker.dump();
}

}  // namespace

// Not an anonymous namespace: TEST_F's classes (external linkage) derive from the fixture, and GCC
// warns (-Wsubobject-linkage) when a unity batch includes this file.
namespace recovery_test_detail {

class RecoveryTest : public GuiTest {
 protected:
  Workbench& start_interactive() {
    WorkbenchOptions o;  // as the program starts: restore the last session, autosave on
    bench_ = std::make_unique<Workbench>(o);
    frames(3);
    return *bench_;
  }
};

}  // namespace recovery_test_detail
using recovery_test_detail::RecoveryTest;

TEST_F(RecoveryTest, CleanRunsLeaveNoMarker) {
  start_interactive();
  EXPECT_TRUE(std::filesystem::exists(Workbench::running_marker_path()));
  EXPECT_FALSE(bench_->recovery_offer().has_value());
  bench_.reset();
  EXPECT_FALSE(std::filesystem::exists(Workbench::running_marker_path()));
  start_interactive();
  EXPECT_FALSE(bench_->recovery_offer().has_value());
}

TEST_F(RecoveryTest, OffersTheWorkOfACrashedRunAndRecoversIt) {
  const auto dir = temp_dir("recover");
  Session on_disk;  // the file the crashed run had open: unswizzled, as last saved
  save_session_file(dir / "mine.json", on_disk);
  leave_crash(dir / "mine.json");

  Workbench& b = start_interactive();
  ASSERT_TRUE(b.recovery_offer().has_value());
  EXPECT_NE(b.recovery_offer()->summary.find("masks 2,4,8,16"), std::string::npos);
  EXPECT_TRUE(b.session().problem.masks.empty());  // nothing reopened before the answer
  // Autosave does not overwrite the crashed work while the question is open.
  frames(3);
  EXPECT_EQ(load_session_file(last_session_path()).problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));

  click("recovery.recover");
  EXPECT_FALSE(b.recovery_offer().has_value());
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  ASSERT_TRUE(b.session_path().has_value());
  EXPECT_EQ(b.session_path()->filename(), "mine.json");
  EXPECT_TRUE(b.dirty());  // the recovered work differs from the file: not yet saved
  EXPECT_TRUE(load_session_file(dir / "mine.json").problem.masks.empty());  // the file is untouched
}

TEST_F(RecoveryTest, StartFreshKeepsTheAutosaveAside) {
  leave_crash();
  Workbench& b = start_interactive();
  ASSERT_TRUE(b.recovery_offer().has_value());
  click("recovery.discard");
  EXPECT_FALSE(b.recovery_offer().has_value());
  EXPECT_TRUE(b.session().problem.masks.empty());
  int kept = 0;
  for (const auto& e : std::filesystem::directory_iterator(config_dir()))
    if (e.path().filename().string().rfind("crashed-session-", 0) == 0) {
      ++kept;
      EXPECT_EQ(load_session_file(e.path()).problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
    }
  EXPECT_EQ(kept, 1);
}

TEST_F(RecoveryTest, AnotherRunningWorkbenchIsNotACrash) {
  Session s;
  s.problem.masks = {1, 2, 4, 8};
  save_session_file(last_session_path(), s);
  std::filesystem::create_directories(config_dir());
  std::ofstream(Workbench::running_marker_path()) << nlohmann::json{{"pid", static_cast<long>(::getppid())}}.dump();
  Workbench& b = start_interactive();
  EXPECT_FALSE(b.recovery_offer().has_value());
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{1, 2, 4, 8}));  // the last session reopens as usual
}

}  // namespace swz::gui::test
