// SIGTERM and SIGINT end the workbench like closing its window: the session is
// saved, the crash-recovery marker removed, and the next start offers nothing.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

bool wait_for(const std::function<bool()>& done, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

void stop_with(int signal_number) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display to open the workbench on";
  const fs::path config = fs::path(::testing::TempDir()) / ("swz-signal-" + std::to_string(signal_number) + "-" + std::to_string(::getpid()));
  fs::remove_all(config);
  fs::create_directories(config);
  const fs::path dir = config / "swizzle-workbench";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
    ::execl(SWZ_WORKBENCH_EXE, SWZ_WORKBENCH_EXE, "--size", "800x600", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Running: the marker is there (written once the first session is set up).
  const bool started = wait_for([&] { return fs::exists(dir / "running.json"); }, 60);
  if (!started) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    FAIL() << "the workbench did not start (no running marker in " << dir << ")";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // a few frames
  ASSERT_EQ(::kill(pid, signal_number), 0);
  int status = 0;
  const bool ended = wait_for([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 30);
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "the workbench ignored signal " << signal_number;
  }
  EXPECT_TRUE(WIFEXITED(status)) << "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  EXPECT_FALSE(fs::exists(dir / "running.json")) << "the crash-recovery marker was left behind";
  EXPECT_TRUE(fs::exists(dir / "last-session.json")) << "the session was not saved";
  fs::remove_all(config);
}

}  // namespace

TEST(GuiSignals, SigtermIsACleanExit) { stop_with(SIGTERM); }
TEST(GuiSignals, SigintIsACleanExit) { stop_with(SIGINT); }
